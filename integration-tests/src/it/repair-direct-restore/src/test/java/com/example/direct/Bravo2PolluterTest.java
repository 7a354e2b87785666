package com.example.direct;

import org.junit.Test;

public class Bravo2PolluterTest {
    @Test
    public void registersAPlugin() {
        Registry.register(" plugin ");
    }
}
