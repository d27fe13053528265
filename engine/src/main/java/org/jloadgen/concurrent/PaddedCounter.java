package org.jloadgen.concurrent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Left-hand cache-line padding so that {@link PaddedCounter#value} shares no line with fields before it.
 */
abstract class PaddedCounterLhsPadding
{
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

/**
 * The hot value between the paddings.
 */
abstract class PaddedCounterValue extends PaddedCounterLhsPadding
{
    volatile long value;
}

/**
 * A 64-bit counter alone on its cache lines (the Disruptor {@code Sequence} shape), so completing threads that
 * increment it do not false-share with the issue thread's fields. Increments are atomic adds (many writers);
 * reads are acquire loads.
 */
public final class PaddedCounter extends PaddedCounterValue
{
    private static final VarHandle VALUE;

    static
    {
        try
        {
            VALUE = MethodHandles.lookup().findVarHandle(PaddedCounterValue.class, "value", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;

    /**
     * @return the value with acquire semantics.
     */
    public long getAcquire()
    {
        return (long)VALUE.getAcquire(this);
    }

    /**
     * @return the value with volatile semantics (a read that takes part in a Dekker-style hand-off).
     */
    public long getVolatile()
    {
        return (long)VALUE.getVolatile(this);
    }

    /**
     * @param newValue stored with volatile semantics (single writer only; a publish followed by a read of whether
     *                 a consumer parked).
     */
    public void setVolatile(final long newValue)
    {
        VALUE.setVolatile(this, newValue);
    }

    /**
     * @param delta amount to add atomically.
     * @return the value after the add.
     */
    public long addAndGet(final long delta)
    {
        return (long)VALUE.getAndAdd(this, delta) + delta;
    }

    /**
     * @param newValue stored with release semantics (single writer only).
     */
    public void setRelease(final long newValue)
    {
        VALUE.setRelease(this, newValue);
    }
}
