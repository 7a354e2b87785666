package io.github.odrust.agent.samples;

import static org.junit.Assert.assertTrue;

import java.lang.ref.ReferenceQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Test;

/**
 * Leaves thread pools behind without shutting them down, as many test suites do: idle workers
 * that only wait for a task (a fixed pool's, a cached pool's), or a scheduled pool with a task
 * still to run; or a thread waiting for a collected object. Or wakes an idle worker an earlier
 * order left.
 */
public class SampleIdle {
    private static ThreadFactory named(String prefix, boolean daemon) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(daemon);
            return t;
        };
    }

    @Test
    public void leavesAFixedPool() throws Exception {
        Executors.newFixedThreadPool(1, named("odrust-sample-fixed", false))
                .submit(() -> "done")
                .get(10, TimeUnit.SECONDS);
    }

    @Test
    public void leavesACachedPool() throws Exception {
        Executors.newCachedThreadPool(named("odrust-sample-cached", true))
                .submit(() -> "done")
                .get(10, TimeUnit.SECONDS);
    }

    @Test
    public void leavesAScheduledTask() {
        ScheduledExecutorService pool = Executors.newSingleThreadScheduledExecutor(named("odrust-sample-timer", true));
        pool.scheduleAtFixedRate(() -> {}, 50, 50, TimeUnit.MILLISECONDS);
    }

    @Test
    public void leavesManyIdleWorkers() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(70, named("odrust-sample-many", true));
        CountDownLatch all = new CountDownLatch(70);
        for (int i = 0; i < 70; i++) {
            pool.submit(all::countDown);
        }
        assertTrue(all.await(10, TimeUnit.SECONDS));
    }

    @Test
    public void leavesAThreadWaitingForACollectedObject() throws Exception {
        ReferenceQueue<Object> queue = new ReferenceQueue<>();
        Thread t = new Thread(
                () -> {
                    try {
                        queue.remove();
                    } catch (InterruptedException e) {
                        // ends
                    }
                },
                "odrust-sample-cleaner");
        t.setDaemon(true);
        t.start();
        while (t.getState() != Thread.State.WAITING) {
            Thread.sleep(1);
        }
    }

    /**
     * Interrupts the idle worker {@link #leavesAFixedPool} left in this JVM: it runs again, and
     * waits again before this test ends (on a busy machine it might not have run yet).
     */
    @Test
    public void interruptsTheFixedPoolsWorker() throws Exception {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        boolean found = false;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("odrust-sample-fixed-1")) {
                long waited = mx.getThreadInfo(t.getId()).getWaitedCount();
                t.interrupt();
                found = true;
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (mx.getThreadInfo(t.getId()).getWaitedCount() == waited && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                assertTrue(mx.getThreadInfo(t.getId()).getWaitedCount() != waited);
            }
        }
        assertTrue(found);
    }
}
