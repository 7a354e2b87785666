package io.github.odrust.maven.idtests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class IdDetectorTest {
    @Test
    void aFreshRunIsPricedBetweenPhaseOnesPriceAndTheFirstRunMeasured() {
        // mybatis-dynamic-sql: the suite's first test ran a compiler (5.4 s priced), the first run
        // alone took 1.0 s, the searches' runs 2.1 s on average
        assertEquals(2352, IdDetector.freshPrice(5448, 1015L));
        // either alone when the other is not known
        assertEquals(5448, IdDetector.freshPrice(5448, null));
        assertEquals(5448, IdDetector.freshPrice(5448, 0L));
        assertEquals(1015, IdDetector.freshPrice(0, 1015L));
        assertEquals(0, IdDetector.freshPrice(0, null));
    }

    @Test
    void aSharedRunIsPricedAtTheLowerOfTheFirstTestAndTheFirstSharedRun() {
        // mybatis-dynamic-sql: the clean run's first test ran a compiler (4.2 s), the first shared
        // run took 1.0 s with its JVM's start
        assertEquals(1015, IdDetector.sharedPrice(4200L, 1015L));
        // jinjava: a light first test (0.35 s) against a shared JVM's start (0.7 s)
        assertEquals(350, IdDetector.sharedPrice(350L, 700L));
        // either alone when the other is not known
        assertEquals(4200, IdDetector.sharedPrice(4200L, null));
        assertEquals(4200, IdDetector.sharedPrice(4200L, 0L));
        assertEquals(700, IdDetector.sharedPrice(null, 700L));
        assertEquals(0, IdDetector.sharedPrice(null, null));
    }

    @Test
    void theSearchesPriceMixesFreshAndSharedRuns() {
        // mybatis-dynamic-sql with shared JVMs at the start: no fresh run yet, the first shared
        // run (1.0 s, its JVM's start included) is the fresh price's sample: sqrt(5448 * 1015) = 2352;
        // 32 of 96 fresh, the rest at min(4200, 1015)
        assertEquals((32 * 2352 + 64 * 1015) / 96, IdDetector.searchPrice(96, 32, 5448, null, 1015L, 4200L));
        // once a fresh run ran, it is the sample
        assertEquals((32 * 3000 + 64 * 1015) / 96, IdDetector.searchPrice(96, 32, 5448, 1652L, 1015L, 4200L));
        // every run fresh, or the engine does not say: the fresh price
        assertEquals(2352, IdDetector.searchPrice(96, 96, 5448, 1015L, null, 4200L));
        assertEquals(5448, IdDetector.searchPrice(96, null, 5448, null, null, 4200L));
    }
}
