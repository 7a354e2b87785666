package io.github.odrust.maven.repair.id;

/** Replaces the characters {@code [start, end)} with {@code text}. */
final class Edit {
    final int start;
    final int end;
    final String text;

    Edit(int start, int end, String text) {
        this.start = start;
        this.end = end;
        this.text = text;
    }
}
