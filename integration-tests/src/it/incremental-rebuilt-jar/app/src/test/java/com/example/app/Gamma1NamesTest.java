package com.example.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.example.kit.Names;
import org.junit.jupiter.api.Test;

/** An ID test whose set is iterated in testkit's code (a jar of the project, not a directory). */
class Gamma1NamesTest {
    @Test
    void joinsInOrder() {
        assertEquals("a,b,c", Names.joined("a", "b", "c"));
    }
}
