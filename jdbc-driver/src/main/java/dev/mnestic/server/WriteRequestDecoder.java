package dev.mnestic.server;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decodes a Prometheus remote-write 1.0 body, once snappy has inflated it: a
 * {@code prometheus.WriteRequest} (prometheus/prometheus {@code prompb/remote.proto} and
 * {@code prompb/types.proto}) read field by field with protobuf's {@link CodedInputStream},
 * into the rows of the metrics table ({@link Samples}).
 *
 * <p>The fields read: {@code WriteRequest.timeseries} (1); {@code TimeSeries.labels} (1) and
 * {@code samples} (2); {@code Label.name} (1), {@code value} (2); {@code Sample.value} (1,
 * a double) and {@code timestamp} (2, int64 milliseconds since the epoch). Skipped, as the
 * 1.0 specification leaves them out: {@code WriteRequest.metadata} (3),
 * {@code TimeSeries.exemplars} (3) and {@code histograms} (4), and any unknown field.
 *
 * <p>Each series must name its metric ({@code __name__}, non-empty) and every label name
 * must match {@code [a-zA-Z_][a-zA-Z0-9_]*}, each name once; labels may come in any order
 * (the specification asks senders to sort them; the stored form is sorted anyway); a label
 * of empty value is no label, as in Prometheus. A sample's time must lie in years 1 to 9999.
 * A stale marker (the NaN of bits {@value #STALE_NAN_HEX}, which Prometheus writes when a
 * series disappears) is no value and is not stored; it is counted. Any other NaN is a value
 * and is stored. Samples out of time order, within a series or across requests, are stored
 * as they come (the table has no order). Anything else that does not decode, a truncated
 * message, a field of the wrong wire type or a string that is not UTF-8, is an
 * {@link InvalidProtocolBufferException} naming it.
 */
final class WriteRequestDecoder {
  /** The stale marker's bits, as Prometheus's {@code value.StaleNaN}. */
  static final long STALE_NAN = 0x7ff0000000000002L;
  static final String STALE_NAN_HEX = "0x7ff0000000000002";
  /** The first and last millisecond a TIMESTAMP of the store holds (years 1 to 9999, UTC). */
  static final long MIN_MILLIS = -62135596800000L;
  static final long MAX_MILLIS = 253402300799999L;

  private static final String NAME = "__name__";

  private WriteRequestDecoder() {
  }

  /**
   * The rows of one request, column by column: sample {@code i} is
   * {@code (millis[i], names[i], labels[i], values[i])}. One series' samples share its name
   * and labels strings.
   */
  static final class Samples {
    long[] millis = new long[64];
    String[] names = new String[64];
    String[] labels = new String[64];
    double[] values = new double[64];
    int size;
    int series;
    int stale;

    private void add(long t, String name, String labelText, double v) {
      if (size == millis.length) {
        final int n = size * 2;
        millis = Arrays.copyOf(millis, n);
        names = Arrays.copyOf(names, n);
        labels = Arrays.copyOf(labels, n);
        values = Arrays.copyOf(values, n);
      }
      millis[size] = t;
      names[size] = name;
      labels[size] = labelText;
      values[size] = v;
      size++;
    }
  }

  /** The samples of a decoded (inflated) {@code WriteRequest}. */
  static Samples decode(byte[] body) throws InvalidProtocolBufferException {
    final Samples out = new Samples();
    final CodedInputStream in = CodedInputStream.newInstance(body);
    in.setRecursionLimit(8);
    try {
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        if (WireFormat.getTagFieldNumber(tag) == 1) {
          expectLength(tag, "WriteRequest.timeseries");
          final int limit = in.pushLimit(in.readRawVarint32());
          timeSeries(in, out);
          in.popLimit(limit);
        } else {
          in.skipField(tag);
        }
      }
    } catch (InvalidProtocolBufferException e) {
      throw e;
    } catch (IOException e) {
      throw new InvalidProtocolBufferException(e);
    }
    return out;
  }

  private static void timeSeries(CodedInputStream in, Samples out) throws IOException {
    final int series = out.series++;
    final Map<String, String> labels = new TreeMap<>();
    String name = null;
    long[] millis = new long[8];
    double[] values = new double[8];
    int samples = 0;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      switch (WireFormat.getTagFieldNumber(tag)) {
        case 1 -> {
          expectLength(tag, "TimeSeries.labels");
          final int limit = in.pushLimit(in.readRawVarint32());
          String labelName = "";
          String labelValue = "";
          for (int t = in.readTag(); t != 0; t = in.readTag()) {
            switch (WireFormat.getTagFieldNumber(t)) {
              case 1 -> {
                expectLength(t, "Label.name");
                labelName = in.readStringRequireUtf8();
              }
              case 2 -> {
                expectLength(t, "Label.value");
                labelValue = in.readStringRequireUtf8();
              }
              default -> in.skipField(t);
            }
          }
          in.popLimit(limit);
          if (labels.containsKey(labelName) || (labelName.equals(NAME) && name != null)) {
            throw new InvalidProtocolBufferException("series " + series + ": label '"
                + labelName + "' given twice");
          }
          if (labelName.equals(NAME)) {
            name = labelValue;
          } else {
            if (!isLabelName(labelName)) {
              throw new InvalidProtocolBufferException("series " + series + ": label name '"
                  + labelName + "' does not match [a-zA-Z_][a-zA-Z0-9_]*");
            }
            labels.put(labelName, labelValue);
          }
        }
        case 2 -> {
          expectLength(tag, "TimeSeries.samples");
          final int limit = in.pushLimit(in.readRawVarint32());
          double value = 0;
          long time = 0;
          for (int t = in.readTag(); t != 0; t = in.readTag()) {
            switch (WireFormat.getTagFieldNumber(t)) {
              case 1 -> {
                expect(t, WireFormat.WIRETYPE_FIXED64, "Sample.value");
                value = in.readDouble();
              }
              case 2 -> {
                expect(t, WireFormat.WIRETYPE_VARINT, "Sample.timestamp");
                time = in.readInt64();
              }
              default -> in.skipField(t);
            }
          }
          in.popLimit(limit);
          if (time < MIN_MILLIS || time > MAX_MILLIS) {
            throw new InvalidProtocolBufferException("series " + series + ": sample time "
                + time + " ms is outside years 1 to 9999");
          }
          if (Double.doubleToRawLongBits(value) == STALE_NAN) {
            out.stale++;
            continue;
          }
          if (samples == millis.length) {
            millis = Arrays.copyOf(millis, samples * 2);
            values = Arrays.copyOf(values, samples * 2);
          }
          millis[samples] = time;
          values[samples] = value;
          samples++;
        }
        default -> in.skipField(tag);
      }
    }
    if (name == null || name.isEmpty()) {
      throw new InvalidProtocolBufferException("series " + series + " has no metric name"
          + " (label __name__)" + (labels.isEmpty() ? "" : " among its labels " + json(labels)));
    }
    final String labelText = json(labels);
    for (int i = 0; i < samples; i++) {
      out.add(millis[i], name, labelText, values[i]);
    }
  }

  /**
   * The stored form of a label set: a JSON object of its labels but {@code __name__}, names
   * in ascending order (of their UTF-16 code units, which for the names allowed is byte order),
   * labels of empty value left out; {@code {}} when there is none.
   */
  static String json(Map<String, String> sorted) {
    final StringBuilder b = new StringBuilder("{");
    final JsonStringEncoder quote = JsonStringEncoder.getInstance();
    for (Map.Entry<String, String> e : sorted.entrySet()) {
      if (e.getValue().isEmpty()) {
        continue;
      }
      if (b.length() > 1) {
        b.append(',');
      }
      // a label name matches [a-zA-Z_][a-zA-Z0-9_]*: nothing in it to quote
      b.append('"').append(e.getKey()).append("\":\"");
      quote.quoteAsString(e.getValue(), b);
      b.append('"');
    }
    return b.append('}').toString();
  }

  /** Whether {@code s} matches {@code [a-zA-Z_][a-zA-Z0-9_]*}. */
  static boolean isLabelName(String s) {
    for (int i = 0; i < s.length(); i++) {
      final char c = s.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
          || i > 0 && c >= '0' && c <= '9')) {
        return false;
      }
    }
    return !s.isEmpty();
  }

  private static void expectLength(int tag, String field) throws InvalidProtocolBufferException {
    expect(tag, WireFormat.WIRETYPE_LENGTH_DELIMITED, field);
  }

  private static void expect(int tag, int wireType, String field)
      throws InvalidProtocolBufferException {
    if (WireFormat.getTagWireType(tag) != wireType) {
      throw new InvalidProtocolBufferException(field + " has wire type "
          + WireFormat.getTagWireType(tag) + ", expected " + wireType);
    }
  }
}
