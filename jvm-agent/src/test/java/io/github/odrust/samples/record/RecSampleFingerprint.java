package io.github.odrust.samples.record;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;

import org.junit.BeforeClass;
import org.junit.Test;

/** Reads of possibly-mutable fields: writes only when the state behind them changed (RecordIT). */
public class RecSampleFingerprint {
    @BeforeClass
    public static void setUpClass() {
        // a class-level read of the table; putsIntoTable's change is that test's, not the class's
        assertNotNull(RecLookup.TABLE.get('a'));
    }

    @Test
    public void readsTable() {
        int sum = 0;
        for (char c = 'a'; c <= 'z'; c++) {
            sum += RecLookup.TABLE.get(c).bits();
        }
        assertEquals(325, sum);
    }

    @Test
    public void putsIntoTable() {
        RecLookup.TABLE.put('!', new RecLookup.Code(99, "!"));
    }

    @Test
    public void putsAndRemoves() {
        RecLookup.TABLE.put('?', new RecLookup.Code(98, "?"));
        RecLookup.TABLE.remove('?');
        assertNull(RecLookup.TABLE.get('?'));
    }

    @Test
    public void readsLambda() {
        assertEquals(3, (int) RecLookup.DECODER.apply("abc"));
    }

    @Test
    public void incrementsAtomic() {
        RecLookup.COUNTER.incrementAndGet();
    }

    @Test
    public void readsArray() {
        assertEquals(0, RecLookup.CELLS[3]);
    }

    @Test
    public void changesArrayElement() {
        RecLookup.CELLS[3]++;
        RecLookup.CELLS[3]--;
        RecLookup.CELLS[5] = 1;
    }

    @Test
    public void readsHugeList() {
        assertEquals(100_000, RecLookup.HUGE.size());
    }

    @Test
    public void readsCycle() {
        assertEquals(RecLookup.SELF, RecLookup.SELF.next);
    }

    @Test
    public void changesCycle() {
        RecLookup.SELF.next.value++;
    }

    private static void inThreads(int n, java.util.function.IntConsumer body) throws Exception {
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(n);
        Thread[] ts = new Thread[n];
        for (int i = 0; i < n; i++) {
            int k = i;
            ts[i] = new Thread(() -> {
                try {
                    start.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                body.accept(k);
            });
            ts[i].start();
        }
        for (Thread t : ts) {
            t.join();
        }
    }

    @Test
    public void threadsReadAtOnce() throws Exception {
        inThreads(4, k -> assertNull(RecLookup.SHARED.get(k)));
    }

    @Test
    public void threadsReadAndOneWrites() throws Exception {
        inThreads(4, k -> {
            if (k == 3) {
                RecLookup.SHARED.put(k, k);
            } else {
                RecLookup.SHARED.get(k);
            }
        });
    }

    @Test
    public void writesTheSameValue() {
        RecLookup.mode = "a";
        RecLookup.current = new RecLookup.Code(1, "b");
    }

    @Test
    public void setsAndRestores() {
        RecLookup.level = 5;
        RecLookup.level = 0;
    }

    @Test
    public void setsLevel() {
        RecLookup.level = 7;
    }

    @Test
    public void resetsLevel() {
        RecLookup.level = 0;
    }

    @Test
    public void replacesWithAnotherValue() {
        RecLookup.current = new RecLookup.Code(2, "c");
    }

    @Test
    public void resetsThenReads() {
        RecLookup.level = 0;
        assertEquals(0, RecLookup.level);
    }

    @Test
    public void readsThenResets() {
        assertEquals(0, RecLookup.level);
        RecLookup.level = 0;
    }
}
