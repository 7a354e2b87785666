package com.example.minimize;

import org.junit.Test;

public class PolluteOneTest {
    @Test
    public void setsFirst() {
        Shared.first = true;
    }
}
