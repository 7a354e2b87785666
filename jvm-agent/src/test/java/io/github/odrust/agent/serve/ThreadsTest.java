package io.github.odrust.agent.serve;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.Arrays;
import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Which threads are idle pool workers, on the JDK the tests run on (their real stacks). */
class ThreadsTest {
    /** The thread {@code pool} ran its last task on, once it is parked again (or after 5 s). */
    private static ThreadInfo workerOf(ExecutorService pool) throws Exception {
        AtomicReference<Thread> worker = new AtomicReference<>();
        pool.submit(() -> worker.set(Thread.currentThread())).get(10, TimeUnit.SECONDS);
        return parked(worker.get());
    }

    private static ThreadInfo parked(Thread t) throws InterruptedException {
        return until(t.getId(), Thread.State.WAITING, Thread.State.TIMED_WAITING);
    }

    /** Thread {@code id} once it is in one of {@code states} (or after 10 s: the assertion then says). */
    private static ThreadInfo until(long id, Thread.State... states) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        ThreadInfo info;
        do {
            Thread.sleep(5);
            info = ManagementFactory.getThreadMXBean().getThreadInfo(new long[] {id}, true, true)[0];
        } while (!Arrays.asList(states).contains(info.getThreadState()) && System.nanoTime() < deadline);
        return info;
    }

    @Test
    void theWorkersOfFixedCachedAndEmptyScheduledPoolsAreIdle() throws Exception {
        ExecutorService fixed = Executors.newFixedThreadPool(1);
        ExecutorService cached = Executors.newCachedThreadPool();
        ScheduledExecutorService scheduled = Executors.newSingleThreadScheduledExecutor();
        try {
            assertTrue(Threads.idle(workerOf(fixed)), "a fixed pool's worker taking its next task");
            assertTrue(Threads.idle(workerOf(cached)), "a cached pool's worker polling with its keep-alive time");
            assertTrue(Threads.idle(workerOf(scheduled)), "an empty scheduled pool's worker");
        } finally {
            fixed.shutdownNow();
            cached.shutdownNow();
            scheduled.shutdownNow();
        }
    }

    @Test
    void anIdleForkJoinWorkerIsIdle() throws Exception {
        ForkJoinPool pool = new ForkJoinPool(1);
        try {
            AtomicReference<Thread> worker = new AtomicReference<>();
            pool.submit(() -> worker.set(Thread.currentThread())).get(10, TimeUnit.SECONDS);
            assertTrue(Threads.idle(parked(worker.get())), "a fork-join pool's worker waiting for work");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aScheduledPoolWithATaskToRunIsNotIdle() throws Exception {
        ScheduledExecutorService pool = Executors.newSingleThreadScheduledExecutor();
        try {
            ThreadInfo worker = workerOf(pool);
            pool.scheduleAtFixedRate(() -> {}, 1, 1, TimeUnit.HOURS);
            // Once woken, it waits for the task's time.
            ThreadInfo waiting = until(worker.getThreadId(), Thread.State.TIMED_WAITING);
            assertFalse(Threads.idle(waiting), "a scheduled pool waiting to run its task");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aTimersThreadIsIdleOnlyWithNoTask() throws Exception {
        Timer timer = new Timer("odrust-test-timer", true);
        try {
            AtomicReference<Thread> thread = new AtomicReference<>();
            CountDownLatch ran = new CountDownLatch(1);
            timer.schedule(
                    new TimerTask() {
                        @Override
                        public void run() {
                            thread.set(Thread.currentThread());
                            ran.countDown();
                        }
                    },
                    0);
            assertTrue(ran.await(10, TimeUnit.SECONDS));
            assertTrue(Threads.idle(parked(thread.get())), "a timer with no task");
            timer.schedule(
                    new TimerTask() {
                        @Override
                        public void run() {}
                    },
                    TimeUnit.HOURS.toMillis(1));
            assertFalse(
                    Threads.idle(until(thread.get().getId(), Thread.State.TIMED_WAITING)),
                    "a timer with a task to run");
        } finally {
            timer.cancel();
        }
    }

    @Test
    void sleepsAndOtherWaitsAreNotIdle() throws Exception {
        Thread sleeper = new Thread(() -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                // ends
            }
        });
        Object lock = new Object();
        Thread waiter = new Thread(() -> {
            synchronized (lock) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    // ends
                }
            }
        });
        sleeper.start();
        waiter.start();
        try {
            assertFalse(Threads.idle(parked(sleeper)), "a sleep");
            assertFalse(Threads.idle(parked(waiter)), "an untimed wait that is not a pool's");
        } finally {
            sleeper.interrupt();
            waiter.interrupt();
        }
    }

    @Test
    void onlyTheJdksQueuesDirectlyBelowGetTaskCount() {
        StackTraceElement[] ownQueue = {
            new StackTraceElement("jdk.internal.misc.Unsafe", "park", null, -1),
            new StackTraceElement("com.example.TaskQueue", "poll", null, -1),
            new StackTraceElement("java.util.concurrent.ThreadPoolExecutor", "getTask", null, -1),
            new StackTraceElement("java.util.concurrent.ThreadPoolExecutor", "runWorker", null, -1)
        };
        assertFalse(Threads.idle(Thread.State.TIMED_WAITING, ownQueue), "a queue of the project's may do anything");
        StackTraceElement[] jdkQueue = ownQueue.clone();
        jdkQueue[1] = new StackTraceElement("java.util.concurrent.LinkedBlockingQueue", "poll", null, -1);
        assertTrue(Threads.idle(Thread.State.TIMED_WAITING, jdkQueue));
        assertFalse(Threads.idle(Thread.State.RUNNABLE, jdkQueue), "a worker that runs is not idle");
    }
}
