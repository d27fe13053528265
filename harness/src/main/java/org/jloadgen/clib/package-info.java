/**
 * The C library's number parsing and printing as glibc does it ({@code strtoull}, {@code strtod}, {@code %g},
 * {@code %f}): LoadGen reads its config files and writes its logs with them. Below {@code config}, {@code results}
 * and {@code log}, which all need them.
 */
package org.jloadgen.clib;
