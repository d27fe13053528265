package org.jloadgen.sut.tensorrt.device;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * How to build an engine from an ONNX model: one optimization profile per execution context (TensorRT gives a
 * profile to one context at a time), each covering batches of 1 to {@code maxBatch} samples of the dataset's shape,
 * tuned for {@code optBatch}.
 *
 * @param model                    the ONNX model.
 * @param inputName                the input fed with samples.
 * @param sampleShape              one sample's shape (fills dynamic dimensions after the batch axis).
 * @param maxBatch                 the largest batch.
 * @param optBatch                 the batch size TensorRT tunes for (the one used most).
 * @param profiles                 optimization profiles (execution contexts per device).
 * @param fp16                     allow FP16 kernels.
 * @param int8                     allow INT8 kernels (a model quantized with Q/DQ nodes: TensorRT 10 deprecates
 *                                 calibration).
 * @param tf32                     allow TF32 for FP32 math (TensorRT's default; off gives FP32 results closest to a
 *                                 CPU runtime's).
 * @param workspaceBytes           TensorRT's workspace pool limit, 0 for its default (the device's memory).
 * @param builderOptimizationLevel 0-5, or -1 for TensorRT's default (3).
 */
public record EngineBuild(
    Path model,
    String inputName,
    long[] sampleShape,
    int maxBatch,
    int optBatch,
    int profiles,
    boolean fp16,
    boolean int8,
    boolean tf32,
    long workspaceBytes,
    int builderOptimizationLevel)
{
    /**
     * Checks the values.
     */
    public EngineBuild
    {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(inputName, "inputName");
        sampleShape = sampleShape.clone();
        if (maxBatch <= 0 || optBatch <= 0 || optBatch > maxBatch)
        {
            throw new IllegalArgumentException("batch sizes must satisfy 0 < opt <= max: opt " + optBatch + ", max "
                + maxBatch);
        }
        if (profiles <= 0)
        {
            throw new IllegalArgumentException("profiles must be positive: " + profiles);
        }
        if (builderOptimizationLevel < -1 || builderOptimizationLevel > 5)
        {
            throw new IllegalArgumentException("builder optimization level must be 0-5 (or -1): "
                + builderOptimizationLevel);
        }
    }

    @Override
    public long[] sampleShape()
    {
        return sampleShape.clone();
    }

    /**
     * @return every build setting that changes the engine, in one canonical line (part of the cache key).
     */
    public String canonical()
    {
        return String.format(Locale.ROOT, "input=%s sample=%s max_batch=%d opt_batch=%d profiles=%d fp16=%b "
                + "int8=%b tf32=%b workspace=%d opt_level=%d", inputName, Arrays.toString(sampleShape), maxBatch,
            optBatch, profiles, fp16, int8, tf32, workspaceBytes, builderOptimizationLevel);
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof final EngineBuild that && model.equals(that.model) && canonical().equals(
            that.canonical());
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(model, canonical());
    }
}
