package org.jloadgen.sut.tensorrt.cuda;

import org.bytedeco.javacpp.Pointer;

/**
 * A JavaCPP {@link Pointer} over an address the SUT already holds (device memory, pinned memory, the sample slab),
 * without copying or owning it. Mutable, so one instance per call site serves every call: the hot path allocates
 * no pointer objects.
 */
final class Address extends Pointer
{
    Address()
    {
        super();
    }

    Address(final long address)
    {
        super();
        this.address = address;
    }

    /**
     * @param newAddress the address this pointer now holds.
     * @return this.
     */
    Address at(final long newAddress)
    {
        this.address = newAddress;
        return this;
    }
}
