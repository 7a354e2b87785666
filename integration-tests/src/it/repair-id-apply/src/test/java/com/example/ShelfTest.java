package com.example;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.Test;

public class ShelfTest {
    /** ID: an exact order of a set made by Collectors.toSet(). */
    @Test
    public void booksInOrder() {
        assertThat(Shelf.books()).containsExactly("w", "x", "y", "z");
    }

    /** ID too, in the same file: its patch changes another line. */
    @Test
    public void authorsInOrder() {
        assertThat(Shelf.authors()).containsExactly("a", "b", "c", "d");
    }
}
