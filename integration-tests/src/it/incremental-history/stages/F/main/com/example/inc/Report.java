package com.example.inc;

public final class Report {
    private Report() {
    }

    public static int total(int... values) {
        int t = 0;
        for (int v : values) {
            t = Calc.add(t, v);
        }
        return t;
    }
}
