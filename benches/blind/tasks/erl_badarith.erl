#!/usr/bin/env escript
%% sensors.erl -- summarise the hourly readings of the weather stations.
%% Usage: escript sensors.erl
%% Readings are {Station, Hour, Celsius}; 'undefined' marks a failed probe.
-mode(compile).

readings() ->
    [{"north-1", 0, 3.5}, {"north-1", 1, 3.1}, {"north-1", 2, 2.8},
     {"north-2", 0, undefined}, {"north-2", 1, undefined},
     {"harbour", 0, 7.9}, {"harbour", 1, 7.6}, {"harbour", 2, 7.2},
     {"airfield", 0, 1.2}, {"airfield", 1, undefined}, {"airfield", 2, 0.4}].

stations(Readings) ->
    lists:usort([S || {S, _, _} <- Readings]).

valid_values(Station, Readings) ->
    [C || {S, _, C} <- Readings, S =:= Station, C =/= undefined].

mean(Values) ->
    lists:sum(Values) / length(Values).

spread([]) -> 0.0;
spread(Values) ->
    lists:max(Values) - lists:min(Values).

to_fahrenheit(C) ->
    C * 9 / 5 + 32.

summary(Station, Readings) ->
    Values = valid_values(Station, Readings),
    Avg = mean(Values),
    #{station => Station,
      mean_c => Avg,
      mean_f => to_fahrenheit(Avg),
      spread => spread(Values),
      samples => length(Values)}.

format_row(#{station := S, mean_c := C, mean_f := F, spread := D, samples := N}) ->
    io_lib:format("~-10s ~6.1f C ~6.1f F  spread ~4.1f  (~b samples)~n",
                  [S, C, F, D, N]).

%% Fraction of probes that failed, per station, as a percentage.
failure_rate(Station, Readings) ->
    All = [C || {S, _, C} <- Readings, S =:= Station],
    Failed = [C || C <- All, C =:= undefined],
    100 * length(Failed) div max(1, length(All)).

alerts(Summaries) ->
    [S || #{station := S, mean_c := C} <- Summaries, C < 2.0].

main(_Args) ->
    Readings = readings(),
    Summaries = [summary(S, Readings) || S <- stations(Readings)],
    io:put_chars([format_row(Row) || Row <- Summaries]),
    [io:format("~s: ~b% failed probes~n", [S, failure_rate(S, Readings)])
     || S <- stations(Readings), failure_rate(S, Readings) > 0],
    case alerts(Summaries) of
        [] -> ok;
        Cold -> io:format("frost warning: ~s~n", [string:join(Cold, ", ")])
    end.
