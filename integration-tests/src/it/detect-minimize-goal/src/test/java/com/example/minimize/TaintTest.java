package com.example.minimize;

import org.junit.Test;

public class TaintTest {
    @Test
    public void taints() {
        Shared.tainted = true;
    }
}
