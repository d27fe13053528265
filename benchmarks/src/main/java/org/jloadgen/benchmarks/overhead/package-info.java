/**
 * The null-SUT overhead runner ({@code jloadgen overhead}): runs the configurations of the performance budget
 * (DESIGN.md, "Performance budget") against the null SUT, each repeat in a fresh child JVM, and prints the
 * figures beside the official LoadGen's and the targets as a Markdown table.
 */
package org.jloadgen.benchmarks.overhead;
