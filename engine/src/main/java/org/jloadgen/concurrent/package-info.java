/**
 * Waiting and waking between the harness's threads: how many threads may busy-spin on the CPUs the process has
 * ({@link org.jloadgen.concurrent.CpuBudget}), and a parking lot whose publisher wakes a consumer only when one parked
 * ({@link org.jloadgen.concurrent.ParkingLot}), so a hand-off to a busy consumer costs one memory read.
 */
package org.jloadgen.concurrent;
