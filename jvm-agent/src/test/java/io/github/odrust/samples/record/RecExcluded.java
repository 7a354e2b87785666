package io.github.odrust.samples.record;

/** Listed as {@code exclude} in RecordIT's options: its accesses are not recorded. */
public class RecExcluded {
    public static void touch() {
        RecHolder.excludedWrites++;
    }
}
