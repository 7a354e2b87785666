package com.example;

import java.lang.reflect.Field;

/** The SQL column a field maps to. */
public final class Columns {
    private Columns() {}

    public static String column(Field f) {
        Class<?> t = f.getType();
        String sql = t == long.class ? "BIGINT" : t == int.class ? "INTEGER" : "VARCHAR";
        return f.getName() + " " + sql;
    }
}
