package io.github.odrust.samples.record;

/** {@code RecSub.shared} is compiled with owner RecSub; it is recorded as RecBase#shared. */
public class RecSub extends RecBase {}
