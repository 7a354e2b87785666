package com.example.boom;

import org.junit.Test;

public class ExitTest {
    @Test
    public void exits() {
        System.exit(3);
    }
}
