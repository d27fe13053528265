package org.jloadgen.sut.network.serve;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.google.protobuf.UnsafeByteOperations;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import org.jloadgen.sut.network.kserve.Datatypes;
import org.jloadgen.sut.network.kserve.proto.ModelInferResponse;

/**
 * One {@code ModelInfer} request (a call of its own, or a message on a stream) while the SUT works on it: its batch
 * entries' answers as they complete (from any SUT thread), and the response, sent once when the last entry is in or
 * the SUT fails.
 */
final class PendingInfer
{
    /**
     * Where a request's one answer goes: the unary call's observer, or the stream it came on.
     */
    interface Responder
    {
        /**
         * @param response the request's response.
         */
        void respond(ModelInferResponse response);

        /**
         * @param requestId the request's id.
         * @param status    why it failed.
         */
        void fail(String requestId, Status status);

        /**
         * @param observer a unary call's observer.
         * @return a responder that answers the call and completes it.
         */
        static Responder unary(final StreamObserver<ModelInferResponse> observer)
        {
            return new Responder()
            {
                @Override
                public void respond(final ModelInferResponse response)
                {
                    observer.onNext(response);
                    observer.onCompleted();
                }

                @Override
                public void fail(final String requestId, final Status status)
                {
                    observer.onError(status.asRuntimeException());
                }
            };
        }
    }

    private final ServedModel model;
    private final Responder observer;
    private final String requestId;
    private final byte[][] answers;
    private final AtomicInteger remaining;
    private final AtomicBoolean done = new AtomicBoolean();

    /**
     * @param model     what is served.
     * @param observer  where the response goes.
     * @param requestId the request's id, echoed.
     * @param entries   batch entries (samples) in the request.
     */
    PendingInfer(final ServedModel model, final Responder observer, final String requestId, final int entries)
    {
        this.model = model;
        this.observer = observer;
        this.requestId = requestId;
        this.answers = new byte[entries][];
        this.remaining = new AtomicInteger(entries);
    }

    /**
     * @return batch entries.
     */
    int entries()
    {
        return answers.length;
    }

    /**
     * Records entry {@code entry}'s answer; the last one sends the response.
     *
     * @param entry  the batch entry.
     * @param answer the SUT's response bytes.
     */
    void answer(final int entry, final byte[] answer)
    {
        answers[entry] = answer;
        if (remaining.decrementAndGet() == 0)
        {
            respond();
        }
    }

    /**
     * Answers with an error instead (once).
     *
     * @param status the error.
     */
    void fail(final Status status)
    {
        if (done.compareAndSet(false, true))
        {
            observer.fail(requestId, status);
        }
    }

    private void respond()
    {
        final int rowBytes = answers[0].length;
        int total = 0;
        for (final byte[] a : answers)
        {
            if (a.length != rowBytes)
            {
                fail(Status.INTERNAL.withDescription("the SUT answered the entries of one batch with different sizes ("
                    + rowBytes + " and " + a.length + " bytes)"));
                return;
            }
            total += a.length;
        }
        final byte[] data;
        if (answers.length == 1)
        {
            data = answers[0];
        }
        else
        {
            data = new byte[total];
            for (int i = 0; i < answers.length; i++)
            {
                System.arraycopy(answers[i], 0, data, i * rowBytes, rowBytes);
            }
        }
        final ModelInferResponse.InferOutputTensor.Builder output = ModelInferResponse.InferOutputTensor.newBuilder()
            .setName(model.outputName()).setDatatype(model.outputDatatype());
        for (final long d : outputShape(answers.length, rowBytes))
        {
            output.addShape(d);
        }
        final ModelInferResponse.Builder response = ModelInferResponse.newBuilder().setModelName(model.name())
            .setModelVersion(InferenceService.MODEL_VERSION).addOutputs(output)
            // The array is this response's own and never written again.
            .addRawOutputContents(UnsafeByteOperations.unsafeWrap(data));
        if (!requestId.isEmpty())
        {
            response.setId(requestId);
        }
        if (done.compareAndSet(false, true))
        {
            observer.respond(response.build());
        }
    }

    /**
     * @param entries  batch entries.
     * @param rowBytes bytes of one entry's answer.
     * @return the output shape: the advertised one with its one unknown dimension filled in, or
     *         {@code [entries, elements]} when the advertised shape does not fit the answer.
     */
    long[] outputShape(final int entries, final int rowBytes)
    {
        final long[] advertised = model.outputShape();
        final int itemBytes = Math.max(1, Datatypes.elementBytes(model.outputDatatype()));
        final long elements = rowBytes / itemBytes;
        long known = 1;
        int unknown = -1;
        for (int i = 1; i < advertised.length; i++)
        {
            if (advertised[i] < 0)
            {
                if (unknown >= 0)
                {
                    return new long[] {entries, elements};
                }
                unknown = i;
            }
            else
            {
                known *= advertised[i];
            }
        }
        final long[] shape = advertised.clone();
        shape[0] = entries;
        if (unknown >= 0 && known > 0 && elements % known == 0)
        {
            shape[unknown] = elements / known;
            return shape;
        }
        return unknown < 0 && known == elements && rowBytes % itemBytes == 0 ? shape
            : new long[] {entries, elements};
    }
}
