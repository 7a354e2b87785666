package io.github.odrust.samples.record;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Run by RecordIT in a forked JVM, with and without the recording agent. */
class RecSampleJ5 {
    @BeforeAll
    static void setUpAll() {
        RecHolder.j5SetUp++;
    }

    @Test
    void increments() {
        RecHolder.COUNT++;
    }

    @Test
    void readsConstants() {
        if (RecHolder.CONST + RecHolder.NAME.length() < 0) {
            throw new AssertionError();
        }
    }
}
