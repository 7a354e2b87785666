package com.example;

/** A value whose fields are described by reflection. */
public final class Point {
    public int a;
    public int b;
    public int c;
    public int d;
}
