package com.example.explain;

import org.junit.Test;

/** The second polluter, in a class of its own. */
public class BravoPolluterTest {
    @Test
    public void alsoLeavesDirty() {
        Shared.dirty = true;
    }
}
