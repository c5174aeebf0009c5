// How CompletableFuture.allOf reports a failing read while another is still pending.
import java.util.concurrent.*;
public class AllOf {
  public static void main(String[] a) throws Exception {
    CompletableFuture<String> slow = CompletableFuture.supplyAsync(() -> { try { Thread.sleep(300); } catch (InterruptedException e) {} return "slow"; });
    CompletableFuture<String> fail = CompletableFuture.supplyAsync(() -> { throw new RuntimeException("read failed"); });
    long t0 = System.nanoTime();
    try { CompletableFuture.allOf(slow, fail).join(); } catch (CompletionException e) {
      System.out.printf("allOf: %s after %.1fs (waits for every read)%n", e.getCause().getMessage(), (System.nanoTime() - t0) / 1e9);
    }
  }
}
