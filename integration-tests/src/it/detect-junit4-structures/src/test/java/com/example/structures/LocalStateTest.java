package com.example.structures;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/**
 * (b) An intra-class victim and its polluter. JUnit 4's default method order (MethodSorters.DEFAULT,
 * by the names' hash codes: "startsClean" -995456904 before "marksDirty" 1474362412) runs the victim
 * first, so the original order passes.
 */
public class LocalStateTest {
    private static boolean dirty;

    @Test
    public void startsClean() {
        assertFalse("LocalStateTest.dirty was set by marksDirty", dirty);
    }

    @Test
    public void marksDirty() {
        dirty = true;
        assertTrue(dirty);
    }
}
