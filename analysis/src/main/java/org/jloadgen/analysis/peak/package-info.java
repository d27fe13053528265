/**
 * {@code jloadgen peak}: SyLT's search for the highest Server target QPS whose runs stay VALID under the latency
 * bound ({@link org.jloadgen.analysis.peak.PeakSearch}), each probe a full engine run
 * ({@link org.jloadgen.analysis.peak.EngineProber}) against one loaded SUT, summed up in {@code peak.md}
 * ({@link org.jloadgen.analysis.peak.PeakReport}).
 */
package org.jloadgen.analysis.peak;
