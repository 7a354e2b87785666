package com.example;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class IndexTest {
    @Test
    public void namesInOrder() {
        assertEquals("a,b,c,d", Index.names());
    }

    @Test
    public void authorsInOrder() {
        assertEquals("p,q,r,s", Index.authors());
    }
}
