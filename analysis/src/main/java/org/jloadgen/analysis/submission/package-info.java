/**
 * {@code jloadgen submission}: builds one submitter's MLPerf Inference submission tree from a SUT, every run under
 * the official LoadGen, checks it with the official checker, and resumes where it stopped. The official checker's
 * own tables (read at run time by {@code checker_tables.py}) decide the compliance tests, seeds, required fields and
 * paths.
 */
package org.jloadgen.analysis.submission;
