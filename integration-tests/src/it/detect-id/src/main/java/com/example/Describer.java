package com.example;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

/** Describes an object's fields, in the order reflection gives them. */
public final class Describer {
    private Describer() {
    }

    public static String fieldNames(Class<?> type) {
        List<String> names = new ArrayList<>();
        for (Field f : type.getDeclaredFields()) {
            names.add(f.getName());
        }
        return String.join(",", names);
    }
}
