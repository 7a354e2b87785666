package com.example.explain;

import org.junit.Test;

/** The second state-setter of the brittle. */
public class EchoSetterTest {
    @Test
    public void loadsConfigToo() {
        Shared.config = "loaded too";
    }
}
