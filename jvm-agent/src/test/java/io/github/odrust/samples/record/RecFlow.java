package io.github.odrust.samples.record;

import java.util.function.IntSupplier;

/** Branches, loops, handlers, a switch and a lambda around static accesses: instrumented in TransformerTest. */
public class RecFlow {
    static int total;
    static long[] cells = new long[3];

    public static String run(int n) {
        total = 0;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            try {
                if (i % 3 == 0) {
                    throw new IllegalStateException("x" + i);
                }
                total += i > 2 ? RecHolder.CONST : 1;
            } catch (IllegalStateException e) {
                cells[i % cells.length]++;
                sb.append(e.getMessage());
            } finally {
                total++;
            }
            switch (total % 4) {
                case 0:
                    sb.append('a');
                    break;
                case 1:
                    sb.append(System.getProperty("no.such.property", "b"));
                    break;
                default:
                    sb.append(RecHolder.label == null ? 'n' : 'c');
            }
        }
        IntSupplier s = () -> total * 2;
        return sb.toString() + ":" + total + ":" + s.getAsInt() + ":" + cells[0];
    }
}
