package io.github.odrust.samples.record;

public enum RecColor {
    RED,
    GREEN
}
