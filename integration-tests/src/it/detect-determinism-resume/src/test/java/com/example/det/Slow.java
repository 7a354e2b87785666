package com.example.det;

/** Every test takes a little time, so that prebuild.groovy can kill a detect run midway. */
final class Slow {
    private Slow() {
    }

    static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
