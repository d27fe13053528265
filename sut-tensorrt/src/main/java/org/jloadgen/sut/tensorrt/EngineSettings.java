package org.jloadgen.sut.tensorrt;

import java.nio.file.Path;

/**
 * Where the engine comes from: built from an ONNX model (and cached on disk), or loaded from a serialized engine.
 *
 * @param modelFile                the ONNX model ({@code model-file}), or {@code null} with an engine file.
 * @param engineFile               a serialized engine to load instead of building ({@code engine}), or {@code null}.
 * @param inputName                the input fed with samples ({@code input}), or {@code null} for the only one.
 * @param outputName               the output returned ({@code output}), or {@code null} for the first.
 * @param fp16                     allow FP16 kernels ({@code fp16}).
 * @param int8                     allow INT8 kernels of a Q/DQ-quantized model ({@code int8}).
 * @param tf32                     allow TF32 for FP32 math ({@code tf32}, TensorRT's default).
 * @param workspaceBytes           TensorRT's workspace limit ({@code workspace}), 0 for TensorRT's default.
 * @param builderOptimizationLevel 0-5 ({@code builder-opt-level}), -1 for TensorRT's default.
 * @param optBatch                 the batch size profiles are tuned for ({@code opt-batch}), 0 for the largest.
 * @param cacheDir                 where built engines are kept ({@code engine-cache}), or {@code null} for none.
 */
public record EngineSettings(
    Path modelFile,
    Path engineFile,
    String inputName,
    String outputName,
    boolean fp16,
    boolean int8,
    boolean tf32,
    long workspaceBytes,
    int builderOptimizationLevel,
    int optBatch,
    Path cacheDir)
{
    /**
     * Checks the values.
     */
    public EngineSettings
    {
        if (modelFile == null && engineFile == null)
        {
            throw new IllegalArgumentException("the tensorrt SUT needs a model: --model-file FILE.onnx, or a "
                + "serialized engine: --sut-opt engine=FILE (or model-file / engine in a --descriptor)");
        }
        if (workspaceBytes < 0)
        {
            throw new IllegalArgumentException("workspace must not be negative: " + workspaceBytes);
        }
        if (builderOptimizationLevel < -1 || builderOptimizationLevel > 5)
        {
            throw new IllegalArgumentException("builder-opt-level must be 0 to 5: " + builderOptimizationLevel);
        }
        if (optBatch < 0)
        {
            throw new IllegalArgumentException("opt-batch must not be negative: " + optBatch);
        }
    }

    /**
     * @return the file named in messages and the SUT name: the engine when given, else the model.
     */
    public Path source()
    {
        return engineFile != null ? engineFile : modelFile;
    }
}
