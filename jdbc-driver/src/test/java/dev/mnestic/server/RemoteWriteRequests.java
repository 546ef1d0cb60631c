package dev.mnestic.server;

import com.google.protobuf.CodedOutputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;

/**
 * Encodes Prometheus remote-write 1.0 messages ({@code prompb/types.proto}) as a sender does,
 * for the tests of {@link WriteRequestDecoder} and for bench's {@code RemoteWriteBench} (which
 * reaches it through this module's test-jar). Protobuf messages concatenate: a caller adds
 * fields to a message by writing its bytes raw and then the fields ({@link #message}).
 */
public final class RemoteWriteRequests {
  private RemoteWriteRequests() {
  }

  /** Writes the fields of one message. */
  @FunctionalInterface
  public interface Fields {
    void write(CodedOutputStream out) throws IOException;
  }

  /** The message whose fields {@code fields} writes. */
  public static byte[] message(Fields fields) throws IOException {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    fields.write(out);
    out.flush();
    return bytes.toByteArray();
  }

  /** A {@code Label}: name 1, value 2. */
  public static byte[] label(String name, String value) throws IOException {
    return message(out -> {
      out.writeString(1, name);
      out.writeString(2, value);
    });
  }

  /** A {@code Sample}: value 1 (double), timestamp 2 (int64 milliseconds since the epoch). */
  public static byte[] sample(double value, long millis) throws IOException {
    return message(out -> {
      out.writeDouble(1, value);
      out.writeInt64(2, millis);
    });
  }

  /**
   * A {@code TimeSeries}: labels 1, {name, value} pairs in the order given; samples 2, sample
   * {@code i} at {@code millis[i]} of value {@code values[i]}.
   */
  public static byte[] timeSeries(List<String[]> labels, long[] millis, double[] values)
      throws IOException {
    return message(out -> {
      for (String[] label : labels) {
        out.writeByteArray(1, label(label[0], label[1]));
      }
      for (int i = 0; i < millis.length; i++) {
        out.writeByteArray(2, sample(values[i], millis[i]));
      }
    });
  }
}
