// The same checks as repair-junit4's (the JUnit 4 copy of this fixture), on this module.
return evaluate(new File(new File("$basedir").parentFile, 'repair-junit4/verify.groovy'))
