/**
 * CozoDB's value model, plain Java (JDK only; SQL never uses it): values and their order
 * ({@link dev.mnestic.value.Values}), functions, aggregations and bounded meets, the text a
 * value is stored as ({@link dev.mnestic.value.StoredJson}), and the errors with CozoDB's codes
 * ({@link dev.mnestic.value.ErrorCode}, the one catalog of them;
 * {@link dev.mnestic.value.ValueException}). Every stage of the Datalog pipeline uses it.
 *
 * <p>In: Java objects holding CozoDB values. Out: values, comparisons, results of functions
 * and aggregations.
 */
package dev.mnestic.value;
