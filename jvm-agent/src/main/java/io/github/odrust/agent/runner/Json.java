package io.github.odrust.agent.runner;

import java.util.Collection;
import java.util.Map;

/** A tiny JSON writer: one object per call, fields in insertion order. No dependencies. */
public final class Json {
    private final StringBuilder sb = new StringBuilder(128);
    private boolean first = true;

    private Json() {
        sb.append('{');
    }

    public static Json obj() {
        return new Json();
    }

    public static Json event(String name) {
        return new Json().put("event", name);
    }

    private void key(String k) {
        if (!first) {
            sb.append(',');
        }
        first = false;
        quote(sb, k);
        sb.append(':');
    }

    public Json put(String k, Object v) {
        key(k);
        value(sb, v);
        return this;
    }

    @Override
    public String toString() {
        return sb.toString() + "}";
    }

    @SuppressWarnings("unchecked")
    static void value(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String) {
            quote(sb, (String) v);
        } else if (v instanceof Boolean) {
            sb.append(((Boolean) v).booleanValue() ? "true" : "false");
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                sb.append("null");
            } else {
                sb.append(d);
            }
        } else if (v instanceof Number) {
            sb.append(v.toString());
        } else if (v instanceof Json) {
            sb.append(v.toString());
        } else if (v instanceof Map) {
            sb.append('{');
            boolean f = true;
            for (Map.Entry<Object, Object> e : ((Map<Object, Object>) v).entrySet()) {
                if (!f) {
                    sb.append(',');
                }
                f = false;
                quote(sb, String.valueOf(e.getKey()));
                sb.append(':');
                value(sb, e.getValue());
            }
            sb.append('}');
        } else if (v instanceof Collection) {
            sb.append('[');
            boolean f = true;
            for (Object o : (Collection<Object>) v) {
                if (!f) {
                    sb.append(',');
                }
                f = false;
                value(sb, o);
            }
            sb.append(']');
        } else {
            quote(sb, v.toString());
        }
    }

    /** Appends s as a JSON string. Lone surrogates (invalid UTF-16) become U+FFFD. */
    public static void quote(StringBuilder sb, String s) {
        sb.append('"');
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    sb.append("\\\"");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                case '\b':
                    sb.append("\\b");
                    break;
                case '\f':
                    sb.append("\\f");
                    break;
                default:
                    if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
                        hex(sb, c);
                    } else if (Character.isHighSurrogate(c)) {
                        if (i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                            sb.append(c).append(s.charAt(i + 1));
                            i++;
                        } else {
                            sb.append('\uFFFD');
                        }
                    } else if (Character.isLowSurrogate(c)) {
                        sb.append('\uFFFD');
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }

    private static void hex(StringBuilder sb, char c) {
        String h = Integer.toHexString(c);
        sb.append("\\u");
        for (int k = h.length(); k < 4; k++) {
            sb.append('0');
        }
        sb.append(h);
    }

    public static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2);
        quote(b, s);
        return b.toString();
    }
}
