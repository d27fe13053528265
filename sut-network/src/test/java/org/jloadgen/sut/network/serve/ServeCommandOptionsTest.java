package org.jloadgen.sut.network.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jloadgen.cli.api.ExitCodes;
import org.jloadgen.testing.CommandLineRun;
import org.junit.jupiter.api.Test;

/**
 * {@code jloadgen serve} refuses bad options before it starts a SUT or listens, with a message that names the option.
 */
class ServeCommandOptionsTest
{
    @Test
    void shouldNameThePortOptionWhenThePortIsOutOfRange()
    {
        final CommandLineRun r = CommandLineRun.jloadgen("serve", "--sut", "null", "--port", "99999");
        assertEquals(ExitCodes.USAGE, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("jloadgen: --port 99999 is not a TCP port (0 to 65535; 0 picks a free one)"),
            r.err());
        assertEquals("", r.out());
    }

    @Test
    void shouldAskForTheKeyWithTheCertificate()
    {
        final CommandLineRun r = CommandLineRun.jloadgen("serve", "--sut", "null", "--tls-cert", "cert.pem");
        assertEquals(ExitCodes.USAGE, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("jloadgen: --tls-cert and --tls-key go together"), r.err());
    }
}
