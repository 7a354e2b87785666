package com.example.minimize;

import org.junit.Test;

public class PolluteTwoTest {
    @Test
    public void setsSecond() {
        Shared.second = true;
    }
}
