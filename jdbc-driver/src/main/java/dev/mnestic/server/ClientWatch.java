package dev.mnestic.server;

import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ssl.SslConnection;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Notices a client that goes away while its request runs (its process killed, its socket
 * closed), so that the request's work is cancelled within about a second instead of running
 * to its statement timeout; and ticks, for the server's housekeeping.
 *
 * <p>How: a request's body is read whole before its work starts, and Avatica's thin client
 * sends nothing more on that HTTP connection until it has the answer. So once the work runs,
 * the connection's socket turning readable means either that the client closed it (end of
 * stream, or a reset) or that it pipelined a next request. The watch thread selects, on a
 * {@link Selector} of its own, the sockets of requests that have run for a
 * {@value #TICK_MILLIS} ms tick, and asks a readable one how many bytes wait
 * ({@code FIONREAD}, which consumes nothing): none means the peer is gone, and
 * {@code vanished} is called with the request's thread. Bytes waiting (a pipelined request,
 * or TLS's closing alert) tell nothing: that request is no longer watched.
 *
 * <p>Lifecycle of a {@link Watch}: {@link #watch} on the request's thread before its work;
 * registered with the selector by the watch thread after a tick; {@link Watch#close} after
 * the work, from when on {@code vanished} is never called for it (both under its lock).
 */
final class ClientWatch implements AutoCloseable {
  /** How often the watch thread looks at new requests and runs the server's housekeeping. */
  static final long TICK_MILLIS = 250;

  private final Consumer<Thread> vanished;
  private final Runnable tick;
  private final Selector selector;
  /** Requests running, not yet registered with the selector (or given up on). */
  private final Map<Watch, Boolean> fresh = new ConcurrentHashMap<>();
  private final Thread thread;
  private volatile boolean closed;

  /**
   * @param vanished cancels the work running on the given thread, whose client is gone
   * @param tick run on the watch thread every tick
   */
  ClientWatch(Consumer<Thread> vanished, Runnable tick) throws IOException {
    this.vanished = vanished;
    this.tick = tick;
    this.selector = Selector.open();
    this.thread = new Thread(this::run, "mnestic-client-watch");
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Watches the client of the request running on this thread, from now until the returned
   * watch is closed.
   */
  Watch watch(EndPoint endPoint) {
    final Watch w = new Watch(socketOf(endPoint), Thread.currentThread(), System.nanoTime());
    if (w.channel != null) {
      fresh.put(w, Boolean.TRUE);
    }
    return w;
  }

  /** The socket under an HTTP or HTTPS connection's end point, or null for another transport. */
  private static SocketChannel socketOf(EndPoint endPoint) {
    EndPoint e = endPoint;
    while (e instanceof SslConnection.DecryptedEndPoint decrypted) {
      e = decrypted.getSslConnection().getEndPoint();
    }
    return e != null && e.getTransport() instanceof SocketChannel socket ? socket : null;
  }

  /** One request's watch. */
  final class Watch implements AutoCloseable {
    private final SocketChannel channel;
    private final Thread worker;
    private final long started;
    private SelectionKey key;
    private boolean done;

    private Watch(SocketChannel channel, Thread worker, long started) {
      this.channel = channel;
      this.worker = worker;
      this.started = started;
    }

    /** Ends the watch: the request's work is over. */
    @Override public synchronized void close() {
      done = true;
      fresh.remove(this);
      if (key != null) {
        // Deregistered at the selector's next select, within a tick: until then the JDK
        // defers closing the socket, which Jetty may do once the answer is written.
        key.cancel();
      }
    }

    private synchronized void register() {
      if (done) {
        return;
      }
      try {
        key = channel.register(selector, SelectionKey.OP_READ, this);
      } catch (ClosedChannelException | CancelledKeyException e) {
        // Closed under it: Jetty noticed first; its work will fail writing the answer.
        done = true;
        vanished.accept(worker);
      }
    }

    /** The socket is readable: the client is gone when no byte waits. */
    private synchronized void readable() {
      if (done) {
        return;
      }
      done = true;
      key.cancel();
      if (waiting() == 0) {
        vanished.accept(worker);
      }
    }

    /** Bytes waiting to be read, without reading them; 0 at the end of the stream. */
    private int waiting() {
      try {
        // Not closed: closing a socket's stream closes the socket.
        return channel.socket().getInputStream().available();
      } catch (IOException e) {
        // A reset connection, or one Jetty closed: gone either way.
        return 0;
      }
    }
  }

  private void run() {
    final long tickNanos = TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);
    while (!closed) {
      try {
        selector.select(TICK_MILLIS);
        for (SelectionKey k : selector.selectedKeys()) {
          ((Watch) k.attachment()).readable();
        }
        selector.selectedKeys().clear();
        final long now = System.nanoTime();
        for (Watch w : fresh.keySet()) {
          if (now - w.started >= tickNanos) {
            fresh.remove(w);
            w.register();
          }
        }
        tick.run();
      } catch (IOException e) {
        throw new UncheckedIOException("the client watch's selector failed", e);
      } catch (RuntimeException e) {
        // Housekeeping failed this tick; the next one tries again.
      }
    }
  }

  @Override public void close() throws IOException {
    closed = true;
    selector.wakeup();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(2));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    selector.close();
  }
}
