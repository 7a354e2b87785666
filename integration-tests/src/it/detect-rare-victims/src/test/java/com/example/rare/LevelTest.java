package com.example.rare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Jupiter, 12 tests: every test but readsZeroLevel resets the level first and bumpsLevel then
 * bumps it, so readsZeroLevel fails only right after bumpsLevel (1 random order in 12).
 */
class LevelTest {
    @Test
    void bumpsLevel() {
        Settings.level = 0;
        Settings.level = 5;
        assertEquals(5, Settings.level);
    }

    @Test
    void readsZeroLevel() {
        assertEquals(0, Settings.level, "the level was left bumped");
    }

    @Test
    void level1() {
        Settings.level = 0;
        assertEquals(0, Settings.level);
    }

    @Test
    void level2() {
        Settings.level = 0;
        assertEquals(0, Settings.level);
    }

    @Test
    void level3() {
        Settings.level = 0;
        assertEquals(0, Settings.level);
    }

    @Test
    void level4() {
        Settings.level = 0;
        assertEquals(0, Settings.level);
    }

    @Test
    void level5() {
        Settings.level = 0;
        assertEquals(0, Settings.level);
    }

    @Test
    void level6() {
        Settings.level = 0;
        assertEquals(0, Settings.level);
    }

    @Test
    void level7() {
        Settings.level = 0;
        assertEquals(0, Settings.level);
    }

    @Test
    void level8() {
        Settings.level = 0;
        assertEquals(0, Settings.level);
    }

    @Test
    void level9() {
        Settings.level = 0;
        assertEquals(0, Settings.level);
    }

    @Test
    void level10() {
        Settings.level = 0;
        assertEquals(0, Settings.level);
    }
}
