package com.example;

/** A value whose fields are not declared in alphabetical order. */
public final class Reading {
    public int zeta;
    public int alpha;
    public int mid;
}
