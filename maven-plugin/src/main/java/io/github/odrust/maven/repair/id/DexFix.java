package io.github.odrust.maven.repair.id;

import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * DexFix's domain-specific rewrites of implementation-dependent tests (tests that assume an
 * iteration order the JDK does not promise), at the source line odrust pinned the shuffled JDK
 * call to:
 *
 * <ul>
 *   <li>{@link HashToLinkedHash}: {@code new HashMap<>(..)} / {@code new HashSet<>(..)} becomes
 *       {@code new LinkedHashMap<>(..)} / {@code new LinkedHashSet<>(..)};
 *   <li>{@link FieldByName}: the elements a test takes from {@code T.class.getDeclaredFields()} by
 *       index are looked up by name;
 *   <li>{@link SortFields}: {@code c.getDeclaredFields()} (and the other reflection arrays) is sorted;
 *   <li>{@link ChangeContainsExactly}: an assertion of an exact order becomes order-insensitive
 *       (AssertJ, Hamcrest, Truth).
 *   <li>{@link JsonAssertion JSONAssertion}: a test's comparison of a JSON text literal compares JSON as JSON
 *       (JSONassert, Gson or Jackson).
 * </ul>
 *
 * <p>Each rewrite reads the whole text of one {@code .java} file and returns candidates, each the
 * text with one minimal edit (a range of characters replaced, plus an import line where needed):
 * every other character stays as it was, line separators included. Nothing is resolved: which
 * library a name belongs to is decided from the file's imports and qualifiers. The caller
 * compiles and verifies each candidate. Each rewrite is a class of its own; this one chooses the
 * rewrite by the name the engine gives it ({@link #candidates}). The parsed source and its edits
 * are {@link Src} and {@link Edit}.
 */
final class DexFix {
    private DexFix() {}

    /** One candidate: the patched source text and a one-line description, or why the rewrite does not apply. */
    static final class Result {
        private final String source;
        private final String text;

        private Result(String source, String text) {
            this.source = source;
            this.text = text;
        }

        static Result patched(String source, String description) {
            return new Result(Objects.requireNonNull(source), Objects.requireNonNull(description));
        }

        static Result notApplicable(String reason) {
            return new Result(null, Objects.requireNonNull(reason));
        }

        /** Whether this is a patch (else it is a reason). */
        boolean applies() {
            return source != null;
        }

        /** The whole patched source text. */
        String source() {
            if (source == null) {
                throw new IllegalStateException("not applicable: " + text);
            }
            return source;
        }

        /** What the patch changes, one line. */
        String description() {
            if (source == null) {
                throw new IllegalStateException("not applicable: " + text);
            }
            return text;
        }

        /** Why the rewrite does not apply, one line naming the line (and the file where its name is known). */
        String reason() {
            if (source != null) {
                throw new IllegalStateException("applies: " + text);
            }
            return text;
        }

        @Override
        public String toString() {
            return (applies() ? "patch: " : "not applicable: ") + text;
        }
    }

    /** JSON libraries a JSONAssertion rewrite may use, best first. */
    enum JsonLibrary {
        JSONASSERT,
        /** Gson 2.8.6 or later: {@code JsonParser.parseString}. */
        GSON,
        /** Gson before 2.8.6: {@code new JsonParser().parse}. */
        GSON_LEGACY,
        JACKSON
    }

    /**
     * The candidates of the rewrite the engine named {@code strategy}, or null when odrust does not
     * know it. {@code target} is the pinned call's type or method (null: {@code HashMap},
     * {@code getDeclaredFields}), {@code method} the test method (JSONAssertion); {@code java8}
     * and {@code jsonLibraries} are asked only by the rewrites that need them.
     */
    static List<Result> candidates(
            String strategy,
            String source,
            int line,
            String target,
            String method,
            BooleanSupplier java8,
            Supplier<List<JsonLibrary>> jsonLibraries) {
        switch (strategy) {
            case "HashToLinkedHash":
                return hashToLinkedHash(source, line, target == null ? "HashMap" : target);
            case "FieldByName":
                return fieldByName(source, line);
            case "SortFields":
                return sortReflection(
                        source, line, target == null ? "getDeclaredFields" : target, java8.getAsBoolean());
            case "ChangeContainsExactly":
                return changeContainsExactly(source, line);
            case "JSONAssertion":
                return jsonAssertion(source, method == null ? "" : method, jsonLibraries.get());
            default:
                return null;
        }
    }

    /** {@link HashToLinkedHash}: the candidates in source order, or one result that does not apply. */
    static List<Result> hashToLinkedHash(String source, int line, String type) {
        return HashToLinkedHash.candidates(source, line, type);
    }

    /** {@link FieldByName}: one candidate per call on the line, or one result that does not apply. */
    static List<Result> fieldByName(String source, int line) {
        return FieldByName.candidates(source, line);
    }

    /** {@link SortFields} for Java 8 or later. */
    static List<Result> sortReflection(String source, int line, String method) {
        return sortReflection(source, line, method, true);
    }

    /** {@link SortFields}: the candidates in source order, or one result that does not apply. */
    static List<Result> sortReflection(String source, int line, String method, boolean java8) {
        return SortFields.candidates(source, line, method, java8);
    }

    /** {@link ChangeContainsExactly}: the candidates in source order, or one result that does not apply. */
    static List<Result> changeContainsExactly(String source, int line) {
        return ChangeContainsExactly.candidates(source, line);
    }

    /** {@link JsonAssertion}: one candidate per assertion rewritten, or one result that does not apply. */
    static List<Result> jsonAssertion(String source, String method, List<JsonLibrary> libraries) {
        return JsonAssertion.candidates(source, method, libraries);
    }

    /** One result that does not apply. */
    static List<Result> reason(String reason) {
        return List.of(Result.notApplicable(reason));
    }
}
