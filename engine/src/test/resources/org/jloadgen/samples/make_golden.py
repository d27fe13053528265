#!/usr/bin/python3
"""Writes the golden .npy files of org.jloadgen.samples tests with NumPy itself (numpy 1.24, Debian 12).

Run from this directory: /usr/bin/python3 make_golden.py. Contents are simple functions of the position so the
Java tests can compute the expected bytes:
  v1_u1_5x2x3.npy     uint8  (5, 2, 3), format 1.0, value = arange
  v2_f4_4x3.npy       <f4    (4, 3),    format 2.0, value = arange / 4
  v3_i8be_3x2.npy     >i8    (3, 2),    format 3.0, value = arange * 1000 - 7
  fortran_f4_2x3.npy  <f4    (2, 3) in Fortran order (rejected as an array of samples)
  structured.npy      [('a', '<i4'), ('b', '<f8')] (rejected)
  object.npy          object array (rejected)
  per_sample/NNN.npy  <i4 samples of varying shape: sample i has shape (i + 1, 2), value = i * 100 + arange
"""
import numpy as np

np.save("v1_u1_5x2x3.npy", np.arange(30, dtype=np.uint8).reshape(5, 2, 3))
with open("v2_f4_4x3.npy", "wb") as f:
    np.lib.format.write_array(f, (np.arange(12, dtype=np.float32) / 4).reshape(4, 3), version=(2, 0))
with open("v3_i8be_3x2.npy", "wb") as f:
    np.lib.format.write_array(f, (np.arange(6) * 1000 - 7).astype(">i8").reshape(3, 2), version=(3, 0))
np.save("fortran_f4_2x3.npy", np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)))
np.save("structured.npy", np.zeros(2, dtype=[("a", "<i4"), ("b", "<f8")]))
np.save("object.npy", np.array([1, "x"], dtype=object), allow_pickle=True)
for i in range(4):
    np.save("per_sample/%03d.npy" % i, (i * 100 + np.arange((i + 1) * 2, dtype="<i4")).reshape(i + 1, 2))
