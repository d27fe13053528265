package org.jloadgen.sut.network.openai;

import java.net.http.HttpClient;

import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.cli.api.ConsoleText;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.spi.SutProvider;

/**
 * {@code --sut openai}: OpenAI-compatible LLM servers (vLLM, TGI, SGLang...) over streaming HTTP, with token
 * latencies. Options: {@link OpenAiOptions}.
 */
public final class OpenAiSutProvider implements SutProvider
{
    /** The name given to {@code --sut}. */
    public static final String NAME = "openai";

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public String description()
    {
        return "OpenAI-compatible LLM servers (vLLM, TGI...) over streaming /v1/completions or /v1/chat/completions, "
            + "first token and token count per sample: --sut-opt url=http://host:port,...,model=NAME --dataset "
            + "PROMPTS [api=chat, max-tokens=N, http=2, inflight=N]; run with --set use_token_latencies=1";
    }

    @Override
    public java.util.List<org.jloadgen.sut.SutOption> options()
    {
        return OpenAiOptions.OPTIONS;
    }

    @Override
    public SutInstance create(final SutContext context)
    {
        final OpenAiOptions options = OpenAiOptions.parse(context.options());
        final PromptLibrary prompts = new PromptLibrary(options);
        final HttpClient client = OpenAiSut.newClient(options);
        try
        {
            OpenAiSut.check(options, client);
        }
        catch (final RuntimeException ex)
        {
            client.shutdownNow();
            throw ex;
        }
        final OpenAiSut sut = new OpenAiSut(options, prompts, client);
        return new SutInstance()
        {
            @Override
            public SystemUnderTest sut()
            {
                return sut;
            }

            @Override
            public QuerySampleLibrary qsl()
            {
                return prompts;
            }

            @Override
            public boolean streamsTokens()
            {
                return true;
            }

            @Override
            public void close()
            {
                // A failure was said once already, by the engine; these counts add up with its own.
                System.err.println(ConsoleText.wrap("jloadgen: openai SUT: " + sut.describeTotals() + "\n"
                    + sut.describeServers().replaceAll("(?m)^", "  ") + sut.describeFailures(), "    "));
                sut.close();
                System.err.println(ConsoleText.wrap("jloadgen: openai SUT, LLM metrics: " + sut.describeMetrics(),
                    "  "));
            }
        };
    }
}
