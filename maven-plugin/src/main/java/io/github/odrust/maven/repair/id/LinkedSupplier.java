package io.github.odrust.maven.repair.id;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.MethodReferenceExpr;
import com.github.javaparser.ast.expr.SimpleName;
import com.github.javaparser.ast.expr.TypeExpr;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import io.github.odrust.maven.repair.id.DexFix.Result;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * HashToLinkedHash where a line makes its {@code HashMap} or {@code HashSet} without {@code new}:
 * a constructor reference ({@code HashSet::new} becomes {@code LinkedHashSet::new}) or a collector
 * of {@code java.util.stream.Collectors} whose map or set is one: {@code toSet()} becomes {@code
 * toCollection(LinkedHashSet::new)}; {@code toMap(k, v)} and {@code toMap(k, v, merge)} and {@code
 * groupingBy(f)} and {@code groupingBy(f, downstream)} get {@code LinkedHashMap::new} as their map
 * supplier. The JVM gives a collector's allocation the line of the {@code collect(...)} call, so a
 * collector inside the arguments of a {@code collect} named on the line counts as on it.
 */
final class LinkedSupplier {
    private LinkedSupplier() {}

    private static final String COLLECTORS = "java.util.stream.Collectors";

    /** Collectors that make a HashMap when no map supplier is given (toMap with 2 or 3 arguments, groupingBy with 1 or 2). */
    private static final Set<String> MAP_COLLECTORS = Set.of("toMap", "groupingBy");

    /** Names for the merge function's parameters, the first pair the file does not use. */
    private static final String[][] MERGE_NAMES = {{"u", "v"}, {"a", "b"}, {"x", "y"}, {"first", "second"}};

    /** The candidates on {@code line} for {@code simple} ({@code HashMap} or {@code HashSet}), in source order. */
    static List<Result> candidates(Src s, int line, String simple, List<String> notes) throws NotApplicable {
        String linked = "Linked" + simple;
        List<Node> found = new ArrayList<>();
        for (MethodReferenceExpr r : s.cu.findAll(MethodReferenceExpr.class, r -> constructorOf(r, simple))) {
            found.add(r);
        }
        for (MethodCallExpr c : s.cu.findAll(MethodCallExpr.class, c -> collects(c, simple))) {
            found.add(c);
        }
        List<Node> at = found.stream().filter(n -> onLine(n, line)).collect(Collectors.toList());
        if (at.isEmpty()) {
            at = found.stream().filter(n -> Src.spans(n, line)).collect(Collectors.toList());
        }
        at.sort(Comparator.comparing((Node n) -> n.getBegin().get()));
        List<Result> results = new ArrayList<>();
        for (Node n : at) {
            List<Edit> edits = new ArrayList<>();
            if (n instanceof MethodReferenceExpr) {
                ClassOrInterfaceType t =
                        (ClassOrInterfaceType) ((TypeExpr) ((MethodReferenceExpr) n).getScope()).getType();
                String[] named = HashToLinkedHash.linkedName(s, simple, t, edits, notes);
                if (named == null) {
                    continue;
                }
                edits.add(s.replace(t.getName(), simple, named[0]));
                results.add(Result.patched(
                        s.apply(edits),
                        s.snippet(n) + " at " + Src.at(n, at) + " becomes " + named[0] + "::new" + named[1]));
                continue;
            }
            MethodCallExpr c = (MethodCallExpr) n;
            Optional<String> qualifier =
                    collectorsQualifier(s, c, c.getNameAsString().equals("toSet") ? "toCollection" : "toList");
            if (qualifier.isEmpty()) {
                notes.add(c.getNameAsString() + "(...) at " + Src.at(c, at) + " is not " + COLLECTORS + "'s");
                continue;
            }
            Src.Naming name = s.typeName("java.util", linked, s.singleImport("java.util." + simple, false));
            if (name.edit != null) {
                edits.add(name.edit);
            }
            String supplier = name.text + "::new";
            NodeList<Expression> args = c.getArguments();
            String after;
            String extra = "";
            switch (c.getNameAsString()) {
                case "toSet":
                    // the call's own scope stays; an unscoped toSet() may be the only member imported
                    after = "toCollection(" + supplier + ")";
                    edits.add(new Edit(
                            s.begin(c.getName()), s.end(c), (c.getScope().isPresent() ? "" : qualifier.get()) + after));
                    break;
                case "toMap":
                    if (args.size() == 2) {
                        String[] p = mergeNames(s);
                        edits.add(s.insert(
                                s.end(args.get(1)),
                                ", (" + p[0] + ", " + p[1] + ") -> {" + " throw new IllegalStateException(\"Duplicate"
                                        + " key (attempted merging values \" + " + p[0] + " + \" and \" + " + p[1]
                                        + " + \")\"); }, " + supplier));
                        extra = " (a duplicate key still throws IllegalStateException; its message no longer names"
                                + " the key)";
                    } else {
                        edits.add(s.insert(s.end(args.get(2)), ", " + supplier));
                    }
                    after = "toMap(..., " + supplier + ")";
                    break;
                default: // groupingBy
                    edits.add(s.insert(
                            s.end(args.get(0)),
                            ", " + supplier + (args.size() == 1 ? ", " + qualifier.get() + "toList()" : "")));
                    after = "groupingBy(..., " + supplier + ", " + (args.size() == 1 ? "toList()" : "...") + ")";
                    break;
            }
            results.add(Result.patched(
                    s.apply(edits),
                    s.snippet(c) + " at " + Src.at(c, at) + " becomes " + after + ", whose "
                            + simple.substring(4).toLowerCase(java.util.Locale.ROOT) + " iterates in insertion order"
                            + extra + name.note));
        }
        return results;
    }

    /** {@code HashMap::new} (or {@code java.util.HashMap::new}) for {@code simple} {@code HashMap}. */
    private static boolean constructorOf(MethodReferenceExpr r, String simple) {
        return r.getIdentifier().equals("new")
                && r.getScope() instanceof TypeExpr
                && ((TypeExpr) r.getScope()).getType() instanceof ClassOrInterfaceType
                && ((ClassOrInterfaceType) ((TypeExpr) r.getScope()).getType())
                        .getNameAsString()
                        .equals(simple);
    }

    /** A call of a collector that makes a {@code simple} itself (no supplier of the caller's). */
    private static boolean collects(MethodCallExpr c, String simple) {
        String name = c.getNameAsString();
        int n = c.getArguments().size();
        if (simple.equals("HashSet")) {
            return name.equals("toSet") && n == 0;
        }
        return MAP_COLLECTORS.contains(name) && (name.equals("toMap") ? n == 2 || n == 3 : n == 1 || n == 2);
    }

    /**
     * Whether {@code n} is on {@code line}: it (or its name) begins there, or it is inside the
     * arguments of a {@code collect(...)} whose name is there (the line the JVM gives what the
     * collector makes).
     */
    private static boolean onLine(Node n, int line) {
        if (Src.beginLine(n) == line) {
            return true;
        }
        if (n instanceof MethodCallExpr && Src.beginLine(((MethodCallExpr) n).getName()) == line) {
            return true;
        }
        for (Node p = n.getParentNode().orElse(null);
                p != null && !(p instanceof Statement);
                p = p.getParentNode().orElse(null)) {
            if (p instanceof MethodCallExpr
                    && ((MethodCallExpr) p).getNameAsString().equals("collect")
                    && Src.beginLine(((MethodCallExpr) p).getName()) == line) {
                return true;
            }
        }
        return false;
    }

    /**
     * How to call {@code other}, another method of {@code Collectors}, beside {@code c}: its own
     * qualifier ({@code "Collectors."}), none under {@code import static java.util.stream.Collectors.*}
     * (unless a class around {@code c} declares a method of that name), else the class's name, as
     * imported or qualified; empty when {@code c} is not Collectors'.
     */
    private static Optional<String> collectorsQualifier(Src s, MethodCallExpr c, String other) {
        String name = c.getNameAsString();
        if (c.getScope().isPresent()) {
            Expression scope = c.getScope().get();
            String written = scope.toString();
            if (written.equals(COLLECTORS)) {
                return Optional.of(written + ".");
            }
            if (!written.equals("Collectors") || s.declares("Collectors")) {
                return Optional.empty();
            }
            String cls = s.classOf(scope);
            boolean ours = cls != null ? cls.equals(COLLECTORS) : s.onDemand("java.util.stream", false);
            return ours ? Optional.of("Collectors.") : Optional.empty();
        }
        if (s.enclosingDeclares(c, name)) {
            return Optional.empty();
        }
        Optional<String> single = s.staticSingle(name);
        if (single.isPresent() && !single.get().equals(COLLECTORS)) {
            return Optional.empty();
        }
        if (single.isEmpty() && !s.onDemand(COLLECTORS, true)) {
            return Optional.empty();
        }
        if (s.onDemand(COLLECTORS, true) && !s.enclosingDeclares(c, other)) {
            return Optional.of("");
        }
        boolean imported = s.importOfSimple("Collectors")
                .map(i -> i.getNameAsString().equals(COLLECTORS))
                .orElse(false);
        return Optional.of(imported ? "Collectors." : COLLECTORS + ".");
    }

    /** Two parameter names no name in the file uses (a lambda's parameter may not hide a local variable). */
    private static String[] mergeNames(Src s) throws NotApplicable {
        Set<String> used = s.cu.findAll(SimpleName.class).stream()
                .map(SimpleName::getIdentifier)
                .collect(Collectors.toSet());
        for (String[] p : MERGE_NAMES) {
            if (!used.contains(p[0]) && !used.contains(p[1])) {
                return p;
            }
        }
        throw new NotApplicable("no free names for toMap's merge function's parameters");
    }
}
