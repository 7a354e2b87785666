package io.github.odrust.agent.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryTest {
    private static final long MB = 1024 * 1024;

    @Test
    void aPoolPastTheShareOfItsLimitIsSaidWithItsFigures() {
        List<String> full = Memory.over(
                Arrays.asList(
                        new Memory.Pool("Metaspace", 200 * MB, 256 * MB),
                        new Memory.Pool("Compressed Class Space", 30 * MB, 1024 * MB),
                        new Memory.Pool("G1 Old Gen", 100 * MB, 512 * MB)),
                Memory.FULL);
        assertEquals(1, full.size(), full.toString());
        assertTrue(full.get(0).contains("Metaspace is 200 of its 256 MB"), full.get(0));
    }

    @Test
    void aPoolWithoutALimitOrBelowTheShareIsNot() {
        List<String> full = Memory.over(
                Arrays.asList(
                        new Memory.Pool("Metaspace", 900 * MB, -1), new Memory.Pool("G1 Old Gen", 300 * MB, 512 * MB)),
                Memory.FULL);
        assertTrue(full.isEmpty(), full.toString());
    }

    @Test
    void theShareForTestsIsOneInZeroToOneElseTheDefault() {
        assertEquals(Memory.FULL, Memory.share(null));
        assertEquals(0.25, Memory.share("0.25"));
        assertEquals(1.0, Memory.share("1"));
        for (String bad : Arrays.asList("0", "-1", "1.5", "NaN", "much")) {
            assertEquals(Memory.FULL, Memory.share(bad), bad);
        }
    }
}
