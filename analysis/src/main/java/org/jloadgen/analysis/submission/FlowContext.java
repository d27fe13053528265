package org.jloadgen.analysis.submission;

import java.util.Map;

/**
 * What every step needs.
 *
 * @param config    the configuration.
 * @param tables    the checker's tables per benchmark.
 * @param tools     the official files.
 * @param layout    the output folders and tree paths.
 * @param children  runs child processes.
 * @param ledger    the step records.
 * @param rehearsal whether this is a rehearsal (short runs).
 */
record FlowContext(SubmissionConfig config, Map<String, CheckerTables> tables, OfficialTools tools, Layout layout,
    Children children, Ledger ledger, boolean rehearsal)
{
}
