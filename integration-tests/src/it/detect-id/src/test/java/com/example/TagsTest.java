package com.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class TagsTest {
    /** ID: asserts an exact order of a set made by Collectors.toSet(). */
    @Test
    public void tagsInOrder() {
        assertThat(Catalog.tags()).containsExactly("w", "x", "y", "z");
    }

    /** Passes under every seed. */
    @Test
    public void arithmetic() {
        assertEquals(4, 2 + 2);
    }
}
