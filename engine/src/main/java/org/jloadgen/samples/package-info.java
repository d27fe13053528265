/**
 * The off-heap sample library: {@link org.jloadgen.samples.SampleStore} keeps the loaded set of a QSL in one
 * page-aligned, optionally pinned slab in load order (or as views of memory-mapped files), loaded from
 * {@link org.jloadgen.samples.ArraySource} (one .npy or raw file) or {@link org.jloadgen.samples.FileSetSource}
 * (one file per sample); {@link org.jloadgen.samples.SampleStoreLibrary} is the QSL over it.
 */
package org.jloadgen.samples;
