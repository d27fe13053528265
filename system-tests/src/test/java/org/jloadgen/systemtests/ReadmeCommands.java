package org.jloadgen.systemtests;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shell commands of a README and what the README test does with each, read from the Markdown source.
 * <p>
 * Commands: every line of a fenced block marked {@code sh} (or {@code bash}, {@code shell}), with backslash
 * continuations joined, blank lines and {@code #} comment lines left out, and a trailing {@code # comment} cut off.
 * <p>
 * Directives: an HTML comment (invisible on the rendered page) directly before a block, blank lines between allowed,
 * says how the test treats commands of that block, one directive per line:
 * <pre>
 * &lt;!-- readme-test
 * skip `./scripts/test` this check runs inside it
 * env `./jloadgen run` JLOADGEN_JAVA_OPTS=-Djloadgen.default.minDurationMs=1000
 * append `./jloadgen run --scenario Server` --set min_duration_ms=1000
 * replace `./jloadgen overhead` `--output overhead.md` `--only smoke --output target/overhead.md`
 * needs `./jloadgen overhead --side-by-side` loadgen
 * --&gt;
 * </pre>
 * or a single directive on one line: {@code <!-- readme-test: skip `./scripts/test` this check runs inside it -->}.
 * Each names its command by a prefix in backticks (whitespace-normalised, continuations joined), which must match
 * exactly one command of the block. {@code skip} needs a reason, which the test prints. {@code env} adds
 * {@code NAME=VALUE} pairs to the command's environment, {@code append} adds arguments at its end (a later
 * {@code --set} wins), {@code replace} swaps one text of the command for another, {@code needs} names what the
 * command needs beyond a clone ({@code loadgen}: the official LoadGen sources, {@code $LOADGEN_DIR} or
 * {@code ../shared/mlperf-inference/loadgen}); the test skips it, saying so, where that is absent. A command without a
 * directive runs as written.
 */
final class ReadmeCommands
{
    private static final Pattern FENCE = Pattern.compile("^\\s*```\\s*(\\S*)\\s*$");
    private static final Pattern DIRECTIVE = Pattern.compile("^(skip|env|append|replace|needs)\\s+`([^`]+)`\\s*(.*)$");
    private static final Pattern REPLACEMENT = Pattern.compile("^`([^`]*)`\\s+`([^`]*)`$");
    private static final String MARK = "readme-test";

    private ReadmeCommands()
    {
    }

    /**
     * How one command is run.
     *
     * @param line       first line of the command in the README (1-based).
     * @param written    the command as the README writes it (continuations joined).
     * @param command    the command the test runs (after {@code append} and {@code replace}).
     * @param env        variables added by {@code env}.
     * @param skipReason why it is not run, or {@code null}.
     * @param needs      what it needs beyond a clone ({@code loadgen}), or {@code null}.
     */
    record Command(int line, String written, String command, Map<String, String> env, String skipReason,
        String needs)
    {
        boolean skipped()
        {
            return skipReason != null;
        }
    }

    /**
     * @param markdown the README's text.
     * @return its commands in order.
     * @throws IllegalArgumentException naming the line of a directive that is malformed, names no command or more
     *                                  than one, or of a block that is not closed.
     */
    static List<Command> parse(final String markdown)
    {
        final String[] lines = markdown.split("\n", -1);
        final List<Command> commands = new ArrayList<>();
        List<String[]> pending = new ArrayList<>();
        int i = 0;
        while (i < lines.length)
        {
            final String line = lines[i];
            if (line.strip().startsWith("<!--") && line.contains(MARK))
            {
                final int start = i;
                final StringBuilder comment = new StringBuilder(line);
                while (!lines[i].contains("-->"))
                {
                    i++;
                    if (i >= lines.length)
                    {
                        throw new IllegalArgumentException("README line " + (start + 1) + ": unclosed comment");
                    }
                    comment.append('\n').append(lines[i]);
                }
                pending = directives(comment.toString(), start + 1);
                i++;
                continue;
            }
            final Matcher fence = FENCE.matcher(line);
            if (fence.matches())
            {
                final String language = fence.group(1);
                final int start = i;
                final List<String> body = new ArrayList<>();
                i++;
                while (i < lines.length && !FENCE.matcher(lines[i]).matches())
                {
                    body.add(lines[i]);
                    i++;
                }
                if (i >= lines.length)
                {
                    throw new IllegalArgumentException("README line " + (start + 1) + ": unclosed code block");
                }
                if (language.equals("sh") || language.equals("bash") || language.equals("shell"))
                {
                    commands.addAll(block(body, start + 2, pending));
                }
                else if (!pending.isEmpty())
                {
                    throw new IllegalArgumentException("README line " + (start + 1) + ": readme-test directives "
                        + "before a block that is not a shell block");
                }
                pending = new ArrayList<>();
                i++;
                continue;
            }
            if (!line.isBlank() && !pending.isEmpty())
            {
                throw new IllegalArgumentException("README line " + (i + 1) + ": readme-test directives must come "
                    + "directly before a shell block");
            }
            i++;
        }
        return commands;
    }

    /** Directive lines of a comment, each as {verb, prefix, argument, line number}. */
    private static List<String[]> directives(final String comment, final int line)
    {
        String body = comment.substring(comment.indexOf(MARK) + MARK.length(), comment.lastIndexOf("-->"));
        body = body.startsWith(":") ? body.substring(1) : body;
        final List<String[]> found = new ArrayList<>();
        final String[] lines = body.split("\n");
        for (int k = 0; k < lines.length; k++)
        {
            final String text = lines[k].strip();
            if (text.isEmpty())
            {
                continue;
            }
            final Matcher m = DIRECTIVE.matcher(text);
            if (!m.matches())
            {
                throw new IllegalArgumentException("README line " + (line + k) + ": expected "
                    + "'skip|env|append|replace|needs "
                    + "`command prefix` argument', got '" + text + "'");
            }
            if (m.group(3).isBlank())
            {
                throw new IllegalArgumentException("README line " + (line + k) + ": '" + m.group(1)
                    + "' needs an argument (skip: the reason)");
            }
            found.add(new String[] {m.group(1), normalise(m.group(2)), m.group(3).strip(), Integer.toString(line + k)});
        }
        return found;
    }

    private static List<Command> block(final List<String> body, final int firstLine, final List<String[]> directives)
    {
        final List<Integer> starts = new ArrayList<>();
        final List<String> written = new ArrayList<>();
        StringBuilder current = null;
        int currentStart = 0;
        for (int k = 0; k < body.size(); k++)
        {
            String text = body.get(k).strip();
            if (current == null && (text.isEmpty() || text.startsWith("#")))
            {
                continue;
            }
            if (current == null)
            {
                current = new StringBuilder();
                currentStart = firstLine + k;
            }
            final boolean continued = text.endsWith("\\");
            if (continued)
            {
                text = text.substring(0, text.length() - 1);
            }
            current.append(text).append(' ');
            if (!continued)
            {
                starts.add(currentStart);
                written.add(normalise(stripComment(current.toString())));
                current = null;
            }
        }
        final List<Command> commands = new ArrayList<>();
        final boolean[] used = new boolean[directives.size()];
        for (int c = 0; c < written.size(); c++)
        {
            String command = written.get(c);
            final Map<String, String> env = new LinkedHashMap<>();
            String skip = null;
            String needs = null;
            for (int d = 0; d < directives.size(); d++)
            {
                final String[] directive = directives.get(d);
                if (!written.get(c).startsWith(directive[1]))
                {
                    continue;
                }
                if (used[d])
                {
                    throw new IllegalArgumentException("README line " + directive[3] + ": `" + directive[1]
                        + "` names more than one command of its block");
                }
                used[d] = true;
                switch (directive[0])
                {
                    case "skip" -> skip = directive[2];
                    case "needs" ->
                    {
                        if (!directive[2].equals("loadgen"))
                        {
                            throw new IllegalArgumentException("README line " + directive[3] + ": needs knows only "
                                + "'loadgen', got '" + directive[2] + "'");
                        }
                        needs = directive[2];
                    }
                    case "append" -> command = command + " " + directive[2];
                    case "env" ->
                    {
                        for (final String pair : directive[2].split("\\s+"))
                        {
                            final int eq = pair.indexOf('=');
                            if (eq <= 0)
                            {
                                throw new IllegalArgumentException("README line " + directive[3] + ": env needs "
                                    + "NAME=VALUE pairs, got '" + pair + "'");
                            }
                            env.put(pair.substring(0, eq), pair.substring(eq + 1));
                        }
                    }
                    case "replace" ->
                    {
                        final Matcher m = REPLACEMENT.matcher(directive[2]);
                        if (!m.matches() || !command.contains(m.group(1)))
                        {
                            throw new IllegalArgumentException("README line " + directive[3] + ": replace needs "
                                + "`text of the command` `new text`, got '" + directive[2] + "'");
                        }
                        command = command.replace(m.group(1), m.group(2));
                    }
                    default -> throw new IllegalStateException(directive[0]);
                }
            }
            commands.add(new Command(starts.get(c), written.get(c), command, env, skip, needs));
        }
        for (int d = 0; d < directives.size(); d++)
        {
            if (!used[d])
            {
                throw new IllegalArgumentException("README line " + directives.get(d)[3] + ": `"
                    + directives.get(d)[1] + "` names no command of the block after it");
            }
        }
        return commands;
    }

    /** Cuts a trailing {@code # comment} (a {@code #} after white space, outside quotes). */
    private static String stripComment(final String command)
    {
        boolean single = false;
        boolean dbl = false;
        for (int i = 0; i < command.length(); i++)
        {
            final char c = command.charAt(i);
            if (c == '\'' && !dbl)
            {
                single = !single;
            }
            else if (c == '"' && !single)
            {
                dbl = !dbl;
            }
            else if (c == '#' && !single && !dbl && i > 0 && Character.isWhitespace(command.charAt(i - 1)))
            {
                return command.substring(0, i);
            }
        }
        return command;
    }

    private static String normalise(final String text)
    {
        return text.strip().replaceAll("\\s+", " ");
    }
}
