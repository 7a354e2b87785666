package com.example;

import java.beans.IntrospectionException;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.util.Date;
import java.util.Set;

/** Labels for a form: a JDK bean's property names, then the form's own names. */
public final class Labels {
    private Labels() {
    }

    /** How many bean properties {@link Date} has, by the JDK's introspection (cached JVM-wide). */
    public static int dateProperties() {
        try {
            PropertyDescriptor[] properties = Introspector.getBeanInfo(Date.class).getPropertyDescriptors();
            return properties.length;
        } catch (IntrospectionException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The names, joined in whatever order the set iterates, after the date's property count. */
    public static String joined(Set<String> names) {
        StringBuilder line = new StringBuilder().append(dateProperties()).append(':');
        for (String name : names) {
            line.append(name);
        }
        return line.toString();
    }
}
