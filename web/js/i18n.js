/**
 * @file I18n: every visible text of the client in English and German, chosen from the browser
 * and switchable.
 */
(function (Tichu) {
  'use strict';

  /**
   * The texts by language and key; `{name}` marks a parameter.
   * @type {Object<string, Object<string, string>>}
   */
  const TEXTS = {
    en: {
      'app.title': 'Tichu',
      'loading.connecting': 'Connecting…',
      'loading.starting': 'Starting the game…',
      'connection.lost': 'Connection lost – reconnecting…',
      'login.intro': 'Play with friends and agents. Enter your name and a table; '
        + 'whoever opens a table is its host.',
      'login.name': 'Your name',
      'login.table': 'Table',
      'login.submit': 'Join the table',
      'login.errorName': 'Please enter a name of 1 to 20 characters.',
      'login.errorTable': 'Please enter a table name of 1 to 40 characters.',
      'login.errorConnect': 'The server cannot be reached. Please try again.',
      'login.sessionLost': 'Your seat is no longer kept. Please join again.',
      'login.replaced': 'Your seat was opened in another window.',
      'lobby.title': 'Table “{table}”',
      'lobby.team20': 'Team A',
      'lobby.team31': 'Team B',
      'lobby.you': 'you',
      'lobby.host': 'host',
      'lobby.hintHost': 'Tap two seats to swap them, then start. Agents play the empty seats.',
      'lobby.hintPicked': 'Now tap the seat to swap with.',
      'lobby.hintGuest': 'Waiting for {host} to start the game.',
      'lobby.ownSeatFixed': 'Your own seat stays where it is; swap the others.',
      'lobby.start': 'Start the game',
      'lobby.leave': 'Leave the table',
      'lobby.agent': 'Level of the bots',
      'lobby.hints': 'Hints',
      'lobby.ready': 'Ready',
      'lobby.readyTag': 'ready',
      'lobby.readyLabel': 'Ready to start',
      'lobby.hintWaiting': 'Waiting until everyone is ready: {names}.',
      'lobby.target': 'Play to',
      'lobby.targetOption': '{score} points',
      'score.target': 'to {score}',
      'chat.open': 'Chat',
      'chat.openLabel': 'Open the chat',
      'chat.unreadLabel': 'Open the chat ({count} unread)',
      'chat.title': 'Table chat',
      'chat.close': 'Close',
      'chat.closeLabel': 'Close the chat',
      'chat.input': 'Message',
      'chat.send': 'Send',
      'chat.mute': 'Mute chat',
      'chat.unmute': 'Show chat',
      'chat.muteLabel': 'Hide incoming chat and reactions',
      'chat.unmuteLabel': 'Show incoming chat and reactions again',
      'chat.muted': 'The chat is muted.',
      'chat.empty': 'No messages yet.',
      'chat.reactionsLabel': 'Quick reactions',
      'chat.tooFast': 'Not so fast: one message a second.',
      'chat.invalid': 'This message cannot be sent (at most 200 characters, no control characters).',
      'reaction.nice': 'Nice!',
      'reaction.good_luck': 'Good luck',
      'reaction.oops': 'Oops',
      'reaction.well_played': 'Well played',
      'reaction.thanks': 'Thanks',
      'agent.random': 'Random',
      'agent.rule': 'Rule',
      'agent.heuristic': 'Heuristic',
      'agent.montecarlo': 'Monte Carlo',
      'level.beginner': 'Beginner',
      'level.casual': 'Casual',
      'level.strong': 'Strong',
      'level.expert': 'Expert',
      'level.beginner.about': 'Plays sensibly but misses things: forgets which cards are out, '
        + 'sometimes leads the wrong card and calls Tichu too boldly.',
      'level.casual.about': 'Plays by fixed rules: keeps its combinations together and its high cards '
        + 'for later, but lets many tricks go.',
      'level.strong.about': 'Counts the cards and weighs its chances; fights for the opponents\' tricks '
        + 'and thinks its last few cards through.',
      'level.expert.about': 'Thinks ahead: before each move it plays many possible deals to the end '
        + '(up to half a second).',
      'level.other': 'A setting of the server, not one of the levels.',
      'seat.agent': 'Bot {n}',
      'toolbar.leave': 'Leave',
      'spectate.tables': 'Tables to watch',
      'spectate.noTables': 'No table is open right now.',
      'spectate.watch': 'Watch',
      'spectate.watchLabel': 'Watch the table “{table}”',
      'spectate.tableLine': '{players} · {state}',
      'spectate.playing': 'playing',
      'spectate.lobby': 'in the lobby',
      'spectate.closed': 'no watchers',
      'spectate.watching': 'Watching',
      'spectate.count': '{count} watching',
      'spectate.allow': 'Show my hand to watchers',
      'spectate.admit': 'Allow watchers',
      'spectate.allowLabel': 'Let watchers see all hands (only when everyone at the table allows it)',
      'toolbar.language': 'Deutsch',
      'toolbar.soundOn': 'Sound is on; tap to mute',
      'toolbar.soundOff': 'Sound is off; tap to turn it on',
      'confirm.leave': 'Leave the table? An agent takes over your seat.',
      'confirm.yes': 'Leave',
      'confirm.no': 'Stay',
      'confirm.tichu': 'Call Tichu? Going out first wins 100 points; otherwise your team loses 100.',
      'confirm.tichuYes': 'Call Tichu',
      'confirm.cancel': 'Cancel',
      'button.pass': 'Pass',
      'button.continue': 'Continue',
      'button.tichu': 'Tichu',
      'button.grandTichu': 'Grand Tichu',
      'button.play': 'Play',
      'button.push': 'Push',
      'button.pickUp': 'Pick up',
      'button.noMove': 'No move',
      'button.bomb': 'Bomb',
      'button.throwBomb': 'Throw bomb!',
      'button.hint': 'Hint',
      'notice.longPress': 'Hold the button to call Grand Tichu.',
      'notice.hintPass': 'Hint: pass.',
      'notice.requestCancelled': 'A bomb interrupted your turn.',
      'notice.playerJoined': '{name} joined the table.',
      'notice.playerLeft': '{name} left; an agent plays the seat.',
      'status.grandTichu': 'Grand Tichu? Hold the button, or continue.',
      'status.waiting': 'Waiting for the others…',
      'status.clock': '{status} · {seconds} s left',
      'status.push': 'Push: tap a card, then a zone.',
      'status.pushReady': 'Ready: push the three cards.',
      'status.pickUp': 'Three cards received: pick them up.',
      'status.pickUpYourLead': 'Your lead: pick up your three cards first.',
      'status.pickUpYourTurn': 'Your turn: pick up your three cards first.',
      'status.pickUpTurnOf': '{name} is playing. Pick up your three cards.',
      'status.yourLead': 'Your lead.',
      'status.yourTurn': 'Your turn.',
      'status.noMove': 'You cannot beat this: pass.',
      'status.turnOf': '{name} is playing.',
      'status.youPassed': 'You passed.',
      'status.youPlayed': 'You played.',
      'status.youPassedTurnOf': 'You passed. {name} is playing.',
      'status.youPlayedTurnOf': 'You played. {name} is playing.',
      'reason.wish': 'The wish is open: play a {value}.',
      'reason.beat': 'That does not beat the {combo}.',
      'reason.combination': 'Not a valid combination.',
      'status.out': 'You are out ({place}).',
      'status.wish': 'Choose a wish.',
      'status.dragon': 'Give the Dragon trick away.',
      'status.roundOver': 'The round is over.',
      'status.gameOver': 'The game is over.',
      'seat.pass': 'Pass',
      'seat.away': 'Offline · agent in {seconds} s',
      'seat.cards': '{count} cards',
      'call.1': 'Tichu',
      'call.2': 'Grand Tichu',
      'place.1': '1st',
      'place.2': '2nd',
      'place.3': '3rd',
      'place.4': '4th',
      'trick.owner': 'Trick: {name}',
      'trick.points': '{points} points',
      'trick.wish': 'Wish: {value}',
      'combo.single': 'Single',
      'combo.pair': 'Pair',
      'combo.triple': 'Triple',
      'combo.stair': 'Stairs',
      'combo.fullhouse': 'Full house',
      'combo.street': 'Straight',
      'combo.bomb': 'Bomb',
      'push.right': 'Right',
      'push.partner': 'Partner',
      'push.left': 'Left',
      'score.round': 'This round: {points}',
      'result.title': 'Round {n}',
      'result.cardPoints': 'Card points',
      'result.bonus': 'Tichu',
      'result.points': 'Round',
      'result.total': 'Total',
      'result.titleDoubleVictory': 'Round {n}: double victory!',
      'result.doubleVictory': 'Double victory',
      'result.winner': '{names} win the game!',
      'result.scoreSheet': 'Score sheet',
      'result.close': 'Close',
      'scores.title': 'Game over',
      'scores.winner': '{team} win the game!',
      'scores.round': 'Round',
      'scores.calls': 'Calls',
      'scores.total': 'Total',
      'scores.back': 'Back to the lobby',
      'scores.made': 'made it',
      'scores.failed': 'failed',
      'scores.noCalls': '–',
      'result.call': '{name}: {call} – {outcome}',
      'result.order': 'Out: {order}',
      'sheet.empty': 'No round finished yet.',
      'dialog.wishTitle': 'Make a wish',
      'dialog.wishText': 'Which value must be played next?',
      'dialog.dragonTitle': 'Give the Dragon trick away',
      'dialog.dragonText': 'To which opponent?',
      'dialog.left': 'on your left',
      'dialog.right': 'on your right',
      'suit.1': 'Swords',
      'suit.2': 'Pagodas',
      'suit.3': 'Jade',
      'suit.4': 'Stars',
      'rank.11': 'J',
      'rank.12': 'Q',
      'rank.13': 'K',
      'rank.14': 'A',
      'corner.0': 'Dog',
      'corner.1': '1',
      'corner.15': 'Dr',
      'corner.16': 'Ph',
      'value.11': 'Jack',
      'value.12': 'Queen',
      'value.13': 'King',
      'value.14': 'Ace',
      'card.0': 'Dog',
      'card.1': 'Mah Jong',
      'card.15': 'Dragon',
      'card.16': 'Phoenix',
      'card.name': '{value} of {suit}',
      'error.100': 'Something went wrong on the server.',
      'error.101': 'The server did not understand the message.',
      'error.102': 'That card does not exist.',
      'error.103': 'That card is not in your hand.',
      'error.104': 'You are not allowed to do that.',
      'error.105': 'The server is busy. Please try again later.',
      'error.106': 'The server is shutting down.',
      'error.107': 'The server is being maintained. Please try again later.',
      'error.200': 'Your session has expired.',
      'error.201': 'Your session is unknown to the server.',
      'error.202': 'This table does not exist.',
      'error.203': 'This table is full.',
      'error.204': 'This name is already taken at this table.',
      'error.205': 'You are already at this table.',
      'error.300': 'This move is not allowed now.',
      'error.301': 'There is nothing to answer now.',
      'error.302': 'A card was chosen twice.',
      'error.303': 'These cards form no combination.',
      'error.304': 'It is your turn: play the bomb with “Play”.',
      'error.305': 'No bomb can be thrown now.',
      'error.306': 'This wish is not allowed.',
      'error.307': 'Tichu cannot be called now.',
      'error.308': 'The Dragon trick must go to an opponent.',
      'error.309': 'Time is up: an agent decided for you.',
      'error.310': 'This question is no longer open.',
      'error.400': 'The game has already started.',
      'error.401': 'Only the host can do this.',
      'error.unknown': 'Error {code}.',
      'tools.lastTrick': 'Last trick',
      'tools.lastTrickLabel': 'Last trick and cards still out (L)',
      'tools.sortSuit': 'Sort by suit',
      'tools.autoPass': 'Auto-pass',
      'tools.autoPassTrick': 'Pass until next trick',
      'tools.autoPassBomb': 'Pass, but let me bomb',
      'review.title': 'Review',
      'review.tabTrick': 'Last trick',
      'review.tabCards': 'Cards out',
      'review.close': 'Close',
      'review.none': 'No trick has been taken yet this round.',
      'review.pass': 'Pass',
      'review.takenBy': '{name} took the trick ({points} points).',
      'review.dragonTo': 'The Dragon trick went to {name}.',
      'review.where.played': 'played',
      'review.where.hand': 'in your hand',
      'review.where.out': 'still out',
      'review.aces': 'Aces still out',
      'review.fourKinds': 'Four-of-a-kind bombs possible',
      'review.straightFlush': 'Straight-flush bombs possible in',
      'review.nothing': 'none',
      'review.played': 'Cards played',
      'review.out': 'Cards still out',
      'review.value': 'Value',
      'review.stillOut': 'Out',
      'history.open': 'Game history',
      'history.title': 'Game history',
      'history.tabGames': 'Games',
      'history.tabLeaders': 'Leaderboard',
      'history.notAccounts': 'Names are not accounts: anyone can play under any name on this home server.',
      'history.empty': 'No games are stored yet.',
      'history.noLeaders': 'No finished games rated yet.',
      'history.loading': 'Loading…',
      'history.error': 'The history could not be loaded ({reason}).',
      'history.notFound': 'No stored game has a player of this name.',
      'history.newer': 'Newer',
      'history.older': 'Older',
      'history.range': 'Games {first}–{last} of {total}',
      'history.filtered': 'Games of {name}',
      'history.all': 'All games',
      'history.rounds': '{count} rounds',
      'history.oneRound': '1 round',
      'history.table': 'Table “{table}”',
      'history.aborted': 'ended early',
      'history.won': 'won',
      'history.replay': 'Replay',
      'history.replayOf': 'Replay of the game of {date}',
      'history.statsOf': 'Statistics of {name}',
      'history.back': 'Back',
      'history.rank': '#',
      'history.name': 'Name',
      'history.rating': 'Rating',
      'history.games': 'Games',
      'history.wins': 'Wins',
      'player.person': 'A person (by name)',
      'player.agent': 'Agent: {kind} (all agents of this kind)',
      'player.rating': 'Rating {rating}',
      'player.games': 'Games won',
      'player.winsOf': '{wins} of {games} ({rate})',
      'player.rounds': 'Rounds played',
      'player.tichu': 'Tichu calls made',
      'player.grand': 'Grand Tichu calls made',
      'player.madeOf': '{made} of {calls} ({rate})',
      'player.double': 'Double victories',
      'player.points': 'Team points per round',
      'player.bombs': 'Bombs played',
      'player.showGames': 'Their games',
      'replay.title': 'Replay',
      'replay.open': 'Open a record',
      'replay.back': 'Back',
      'replay.loading': 'Loading the replay…',
      'replay.choose': 'The file holds several games: choose one',
      'replay.recordN': '{n}. {players} ({score})',
      'replay.notFound': 'There is no stored game with this id.',
      'replay.invalid': 'This file is no game record.',
      'replay.tooLarge': 'The file is too large (at most 2 MiB).',
      'replay.busy': 'The server is busy; please try again in a moment.',
      'replay.offline': 'The server cannot be reached.',
      'replay.failed': 'The replay cannot be loaded.',
      'replay.empty': 'The record cannot be replayed.',
      'replay.fault': 'The record breaks the rules here ({rule}): {reason}',
      'replay.aborted': 'The game ended early here.',
      'replay.seat': 'Seat {n}',
      'replay.seatLabel': '{name}: {count} cards',
      'replay.where': 'Round {round}',
      'replay.whereTrick': 'Round {round} · trick {trick}',
      'replay.position': 'Step {n} of {total}',
      'replay.round': 'Round',
      'replay.trick': 'Trick',
      'replay.speed': 'Speed',
      'replay.roundN': 'Round {n}',
      'replay.trickN': 'Trick {n}',
      'replay.dealing': 'Deal and push',
      'replay.roundEnd': 'Round end',
      'replay.first': 'First step',
      'replay.prev': 'Step back',
      'replay.play': 'Play',
      'replay.pause': 'Pause',
      'replay.next': 'Step forward',
      'replay.last': 'Last step',
      'replay.out': 'out #{place}',
      'replay.passed': 'passed',
      'replay.turn': 'to play',
      'replay.won': '{points} pts · tricks: {tricks}',
      'replay.pushed': '{name} pushes',
      'replay.taken': '{name} takes {points} points',
      'replay.earlier': '+{n} earlier',
      'replay.step.deal': 'Round {round}: everyone gets the first 8 cards.',
      'replay.step.grandTichu': 'The rest is dealt. Grand Tichu: {names}.',
      'replay.step.noGrandTichu': 'The rest is dealt; no one calls Grand Tichu.',
      'replay.step.push': 'Everyone pushes three cards: to the right, to the partner, to the left.',
      'replay.step.tichu': '{name} calls Tichu.',
      'replay.step.play': '{name} plays {combo}.',
      'replay.step.bomb': '{name} bombs with {combo}!',
      'replay.step.pass': '{name} passes.',
      'replay.step.wish': '{name} wishes for a {value}.',
      'replay.step.noWish': '{name} wishes for nothing.',
      'replay.step.dragon': '{name} gives the Dragon trick ({points} points) to {to}.',
      'replay.step.trick': '{name} takes the trick ({points} points).',
      'replay.step.roundEnd': 'Round {round} ends: {a} : {b}.',
      'replay.step.doubleVictory': 'Round {round} ends with a double victory: {a} : {b}.',
      'replay.combo.single': 'the {card}',
      'replay.combo.pair': 'a pair of {value}s',
      'replay.combo.triple': 'three {value}s',
      'replay.combo.stair': 'stairs up to {value}',
      'replay.combo.fullhouse': 'a full house of {value}s',
      'replay.combo.street': 'a straight of {count} up to {value}',
      'replay.combo.dog': 'the Dog',
      'replay.combo.bomb4': 'four {value}s',
      'replay.combo.bombStreet': 'a straight flush up to {value}'
    },
    de: {
      'app.title': 'Tichu',
      'loading.connecting': 'Verbinde …',
      'loading.starting': 'Das Spiel startet …',
      'connection.lost': 'Verbindung verloren – verbinde neu …',
      'login.intro': 'Spiele mit Freunden und Agenten. Gib deinen Namen und einen Tisch ein; '
        + 'wer einen Tisch eröffnet, ist Gastgeber.',
      'login.name': 'Dein Name',
      'login.table': 'Tisch',
      'login.submit': 'Tisch betreten',
      'login.errorName': 'Bitte gib einen Namen mit 1 bis 20 Zeichen ein.',
      'login.errorTable': 'Bitte gib einen Tischnamen mit 1 bis 40 Zeichen ein.',
      'login.errorConnect': 'Der Server ist nicht erreichbar. Bitte versuche es noch einmal.',
      'login.sessionLost': 'Dein Platz wird nicht mehr freigehalten. Bitte tritt neu bei.',
      'login.replaced': 'Dein Platz wurde in einem anderen Fenster geöffnet.',
      'lobby.title': 'Tisch „{table}“',
      'lobby.team20': 'Team A',
      'lobby.team31': 'Team B',
      'lobby.you': 'du',
      'lobby.host': 'Gastgeber',
      'lobby.hintHost': 'Tippe zwei Plätze an, um sie zu tauschen, dann starte. Agenten spielen die freien Plätze.',
      'lobby.hintPicked': 'Tippe jetzt den Platz an, mit dem getauscht wird.',
      'lobby.hintGuest': 'Warte, bis {host} das Spiel startet.',
      'lobby.ownSeatFixed': 'Dein eigener Platz bleibt; tausche die anderen.',
      'lobby.start': 'Spiel starten',
      'lobby.leave': 'Tisch verlassen',
      'lobby.agent': 'Spielstärke der Bots',
      'lobby.hints': 'Tipps',
      'lobby.ready': 'Bereit',
      'lobby.readyTag': 'bereit',
      'lobby.readyLabel': 'Bereit zum Start',
      'lobby.hintWaiting': 'Warte, bis alle bereit sind: {names}.',
      'lobby.target': 'Spielen bis',
      'lobby.targetOption': '{score} Punkte',
      'score.target': 'bis {score}',
      'chat.open': 'Chat',
      'chat.openLabel': 'Chat öffnen',
      'chat.unreadLabel': 'Chat öffnen ({count} ungelesen)',
      'chat.title': 'Tisch-Chat',
      'chat.close': 'Schließen',
      'chat.closeLabel': 'Chat schließen',
      'chat.input': 'Nachricht',
      'chat.send': 'Senden',
      'chat.mute': 'Chat stumm',
      'chat.unmute': 'Chat zeigen',
      'chat.muteLabel': 'Eingehenden Chat und Reaktionen ausblenden',
      'chat.unmuteLabel': 'Eingehenden Chat und Reaktionen wieder zeigen',
      'chat.muted': 'Der Chat ist stumm.',
      'chat.empty': 'Noch keine Nachrichten.',
      'chat.reactionsLabel': 'Schnelle Reaktionen',
      'chat.tooFast': 'Nicht so schnell: eine Nachricht pro Sekunde.',
      'chat.invalid': 'Diese Nachricht kann nicht gesendet werden (höchstens 200 Zeichen, keine Steuerzeichen).',
      'reaction.nice': 'Schön!',
      'reaction.good_luck': 'Viel Glück',
      'reaction.oops': 'Hoppla',
      'reaction.well_played': 'Gut gespielt',
      'reaction.thanks': 'Danke',
      'agent.random': 'Zufall',
      'agent.rule': 'Regel',
      'agent.heuristic': 'Heuristik',
      'agent.montecarlo': 'Monte Carlo',
      'level.beginner': 'Anfänger',
      'level.casual': 'Gelegenheitsspieler',
      'level.strong': 'Stark',
      'level.expert': 'Experte',
      'level.beginner.about': 'Spielt vernünftig, übersieht aber einiges: vergisst, welche Karten gefallen '
        + 'sind, spielt manchmal die falsche Karte aus und sagt zu mutig Tichu an.',
      'level.casual.about': 'Spielt nach festen Regeln: hält seine Kombinationen zusammen und die hohen '
        + 'Karten zurück, lässt aber viele Stiche ziehen.',
      'level.strong.about': 'Zählt die Karten und wägt seine Chancen ab; kämpft um die Stiche der Gegner '
        + 'und denkt seine letzten Karten durch.',
      'level.expert.about': 'Denkt voraus: spielt vor jedem Zug viele mögliche Verteilungen bis zum Ende '
        + 'durch (bis zu einer halben Sekunde).',
      'level.other': 'Eine Einstellung des Servers, keine der Stufen.',
      'seat.agent': 'Bot {n}',
      'toolbar.leave': 'Verlassen',
      'spectate.tables': 'Tische zum Zuschauen',
      'spectate.noTables': 'Gerade ist kein Tisch offen.',
      'spectate.watch': 'Zuschauen',
      'spectate.watchLabel': 'Beim Tisch „{table}“ zuschauen',
      'spectate.tableLine': '{players} · {state}',
      'spectate.playing': 'spielt',
      'spectate.lobby': 'in der Lobby',
      'spectate.closed': 'keine Zuschauer',
      'spectate.watching': 'Zuschauer',
      'spectate.count': '{count} schauen zu',
      'spectate.allow': 'Zuschauern meine Hand zeigen',
      'spectate.admit': 'Zuschauer erlauben',
      'spectate.allowLabel': 'Zuschauer sehen alle Hände (nur wenn alle am Tisch es erlauben)',
      'toolbar.language': 'English',
      'toolbar.soundOn': 'Ton ist an; tippen zum Stummschalten',
      'toolbar.soundOff': 'Ton ist aus; tippen zum Einschalten',
      'confirm.leave': 'Tisch verlassen? Ein Agent übernimmt deinen Platz.',
      'confirm.yes': 'Verlassen',
      'confirm.no': 'Bleiben',
      'confirm.tichu': 'Tichu ansagen? Gehst du als Erster raus, gibt es 100 Punkte; sonst verliert dein Team 100.',
      'confirm.tichuYes': 'Tichu ansagen',
      'confirm.cancel': 'Abbrechen',
      'button.pass': 'Passen',
      'button.continue': 'Weiter',
      'button.tichu': 'Tichu',
      'button.grandTichu': 'Großes Tichu',
      'button.play': 'Spielen',
      'button.push': 'Schupfen',
      'button.pickUp': 'Aufnehmen',
      'button.noMove': 'Kein Zug',
      'button.bomb': 'Bombe',
      'button.throwBomb': 'Bombe werfen!',
      'button.hint': 'Tipp',
      'notice.longPress': 'Lange drücken für Ansage.',
      'notice.hintPass': 'Tipp: passen.',
      'notice.requestCancelled': 'Eine Bombe hat deinen Zug unterbrochen.',
      'notice.playerJoined': '{name} ist an den Tisch gekommen.',
      'notice.playerLeft': '{name} ist gegangen; ein Agent spielt den Platz.',
      'status.grandTichu': 'Großes Tichu? Lange drücken, oder weiter.',
      'status.waiting': 'Warte auf die anderen …',
      'status.clock': '{status} · noch {seconds} s',
      'status.push': 'Schupfen: Karte antippen, dann ein Feld.',
      'status.pushReady': 'Bereit: die drei Karten schupfen.',
      'status.pickUp': 'Drei Karten erhalten: nimm sie auf.',
      'status.pickUpYourLead': 'Du spielst aus: nimm erst deine drei Karten auf.',
      'status.pickUpYourTurn': 'Du bist am Zug: nimm erst deine drei Karten auf.',
      'status.pickUpTurnOf': '{name} ist am Zug. Nimm deine drei Karten auf.',
      'status.yourLead': 'Du spielst aus.',
      'status.yourTurn': 'Du bist am Zug.',
      'status.noMove': 'Du kannst nicht stechen: passe.',
      'status.turnOf': '{name} ist am Zug.',
      'status.youPassed': 'Du hast gepasst.',
      'status.youPlayed': 'Du hast gespielt.',
      'status.youPassedTurnOf': 'Du hast gepasst. {name} ist am Zug.',
      'status.youPlayedTurnOf': 'Du hast gespielt. {name} ist am Zug.',
      'reason.wish': 'Der Wunsch gilt: spiele eine {value}.',
      'reason.beat': 'Das sticht nicht ({combo}).',
      'reason.combination': 'Keine gültige Kombination.',
      'status.out': 'Du bist raus ({place}).',
      'status.wish': 'Wähle einen Wunsch.',
      'status.dragon': 'Verschenke den Drachen-Stich.',
      'status.roundOver': 'Die Runde ist vorbei.',
      'status.gameOver': 'Das Spiel ist vorbei.',
      'seat.pass': 'Passe',
      'seat.away': 'Offline · Bot in {seconds} s',
      'seat.cards': '{count} Karten',
      'call.1': 'Tichu',
      'call.2': 'Großes Tichu',
      'place.1': '1.',
      'place.2': '2.',
      'place.3': '3.',
      'place.4': '4.',
      'trick.owner': 'Stich: {name}',
      'trick.points': '{points} Punkte',
      'trick.wish': 'Wunsch: {value}',
      'combo.single': 'Einzelkarte',
      'combo.pair': 'Paar',
      'combo.triple': 'Drilling',
      'combo.stair': 'Treppe',
      'combo.fullhouse': 'Full House',
      'combo.street': 'Straße',
      'combo.bomb': 'Bombe',
      'push.right': 'Rechts',
      'push.partner': 'Partner',
      'push.left': 'Links',
      'score.round': 'Diese Runde: {points}',
      'result.title': 'Runde {n}',
      'result.cardPoints': 'Kartenpunkte',
      'result.bonus': 'Tichu',
      'result.points': 'Runde',
      'result.total': 'Gesamt',
      'result.titleDoubleVictory': 'Runde {n}: Doppelsieg!',
      'result.doubleVictory': 'Doppelsieg',
      'result.winner': '{names} gewinnen das Spiel!',
      'result.scoreSheet': 'Punkteblatt',
      'result.close': 'Schließen',
      'scores.title': 'Spielende',
      'scores.winner': '{team} gewinnen das Spiel!',
      'scores.round': 'Runde',
      'scores.calls': 'Ansagen',
      'scores.total': 'Gesamt',
      'scores.back': 'Zurück zur Lobby',
      'scores.made': 'geschafft',
      'scores.failed': 'verfehlt',
      'scores.noCalls': '–',
      'result.call': '{name}: {call} – {outcome}',
      'result.order': 'Fertig: {order}',
      'sheet.empty': 'Noch keine Runde beendet.',
      'dialog.wishTitle': 'Wünsch dir was',
      'dialog.wishText': 'Welcher Wert muss als Nächstes gespielt werden?',
      'dialog.dragonTitle': 'Drachen-Stich verschenken',
      'dialog.dragonText': 'An welchen Gegner?',
      'dialog.left': 'links von dir',
      'dialog.right': 'rechts von dir',
      'suit.1': 'Schwerter',
      'suit.2': 'Pagoden',
      'suit.3': 'Jade',
      'suit.4': 'Sterne',
      'rank.11': 'B',
      'rank.12': 'D',
      'rank.13': 'K',
      'rank.14': 'A',
      'corner.0': 'Hund',
      'corner.1': '1',
      'corner.15': 'Dr',
      'corner.16': 'Ph',
      'value.11': 'Bube',
      'value.12': 'Dame',
      'value.13': 'König',
      'value.14': 'Ass',
      'card.0': 'Hund',
      'card.1': 'Mah Jong',
      'card.15': 'Drache',
      'card.16': 'Phönix',
      'card.name': '{suit}-{value}',
      'error.100': 'Auf dem Server ist etwas schiefgegangen.',
      'error.101': 'Der Server hat die Nachricht nicht verstanden.',
      'error.102': 'Diese Karte gibt es nicht.',
      'error.103': 'Diese Karte ist nicht auf deiner Hand.',
      'error.104': 'Das darfst du nicht.',
      'error.105': 'Der Server ist ausgelastet. Bitte versuche es später.',
      'error.106': 'Der Server wird heruntergefahren.',
      'error.107': 'Der Server wird gewartet. Bitte versuche es später.',
      'error.200': 'Deine Sitzung ist abgelaufen.',
      'error.201': 'Der Server kennt deine Sitzung nicht.',
      'error.202': 'Diesen Tisch gibt es nicht.',
      'error.203': 'Dieser Tisch ist voll.',
      'error.204': 'Dieser Name ist an diesem Tisch schon vergeben.',
      'error.205': 'Du sitzt schon an diesem Tisch.',
      'error.300': 'Dieser Zug ist jetzt nicht erlaubt.',
      'error.301': 'Gerade gibt es nichts zu beantworten.',
      'error.302': 'Eine Karte wurde doppelt gewählt.',
      'error.303': 'Diese Karten bilden keine Kombination.',
      'error.304': 'Du bist am Zug: spiele die Bombe mit „Spielen“.',
      'error.305': 'Jetzt kann keine Bombe geworfen werden.',
      'error.306': 'Dieser Wunsch ist nicht erlaubt.',
      'error.307': 'Tichu kann jetzt nicht angesagt werden.',
      'error.308': 'Der Drachen-Stich muss an einen Gegner gehen.',
      'error.309': 'Die Zeit ist um: ein Agent hat für dich entschieden.',
      'error.310': 'Diese Frage ist nicht mehr offen.',
      'error.400': 'Das Spiel hat schon begonnen.',
      'error.401': 'Das darf nur der Gastgeber.',
      'error.unknown': 'Fehler {code}.',
      'tools.lastTrick': 'Letzter Stich',
      'tools.lastTrickLabel': 'Letzter Stich und offene Karten (L)',
      'tools.sortSuit': 'Nach Farbe sortieren',
      'tools.autoPass': 'Automatisch passen',
      'tools.autoPassTrick': 'Passen bis zum nächsten Stich',
      'tools.autoPassBomb': 'Passen, Bomben zulassen',
      'review.title': 'Rückblick',
      'review.tabTrick': 'Letzter Stich',
      'review.tabCards': 'Offene Karten',
      'review.close': 'Schließen',
      'review.none': 'In dieser Runde wurde noch kein Stich genommen.',
      'review.pass': 'Passe',
      'review.takenBy': '{name} hat den Stich genommen ({points} Punkte).',
      'review.dragonTo': 'Der Drachen-Stich ging an {name}.',
      'review.where.played': 'gespielt',
      'review.where.hand': 'auf deiner Hand',
      'review.where.out': 'noch draußen',
      'review.aces': 'Asse noch draußen',
      'review.fourKinds': 'Mögliche Viererbomben',
      'review.straightFlush': 'Mögliche Straßenbomben in',
      'review.nothing': 'keine',
      'review.played': 'Gespielte Karten',
      'review.out': 'Karten noch draußen',
      'review.value': 'Wert',
      'review.stillOut': 'Draußen',
      'history.open': 'Spielverlauf',
      'history.title': 'Spielverlauf',
      'history.tabGames': 'Spiele',
      'history.tabLeaders': 'Rangliste',
      'history.notAccounts': 'Namen sind keine Konten: Auf diesem Heimserver kann jeder unter jedem Namen spielen.',
      'history.empty': 'Noch keine Spiele gespeichert.',
      'history.noLeaders': 'Noch keine gewerteten Spiele.',
      'history.loading': 'Lade …',
      'history.error': 'Der Verlauf konnte nicht geladen werden ({reason}).',
      'history.notFound': 'Kein gespeichertes Spiel hat einen Spieler dieses Namens.',
      'history.newer': 'Neuere',
      'history.older': 'Ältere',
      'history.range': 'Spiele {first}–{last} von {total}',
      'history.filtered': 'Spiele von {name}',
      'history.all': 'Alle Spiele',
      'history.rounds': '{count} Runden',
      'history.oneRound': '1 Runde',
      'history.table': 'Tisch „{table}“',
      'history.aborted': 'abgebrochen',
      'history.won': 'gewonnen',
      'history.replay': 'Wiederholung',
      'history.replayOf': 'Wiederholung des Spiels vom {date}',
      'history.statsOf': 'Statistik von {name}',
      'history.back': 'Zurück',
      'history.rank': '#',
      'history.name': 'Name',
      'history.rating': 'Wertung',
      'history.games': 'Spiele',
      'history.wins': 'Siege',
      'player.person': 'Eine Person (nach Namen)',
      'player.agent': 'Agent: {kind} (alle Agenten dieser Art)',
      'player.rating': 'Wertung {rating}',
      'player.games': 'Gewonnene Spiele',
      'player.winsOf': '{wins} von {games} ({rate})',
      'player.rounds': 'Gespielte Runden',
      'player.tichu': 'Geschaffte Tichu-Ansagen',
      'player.grand': 'Geschaffte Große Tichus',
      'player.madeOf': '{made} von {calls} ({rate})',
      'player.double': 'Doppelsiege',
      'player.points': 'Teampunkte pro Runde',
      'player.bombs': 'Gespielte Bomben',
      'player.showGames': 'Ihre Spiele',
      'replay.title': 'Wiederholung',
      'replay.open': 'Spielbericht öffnen',
      'replay.back': 'Zurück',
      'replay.loading': 'Lade die Wiederholung …',
      'replay.choose': 'Die Datei enthält mehrere Spiele: wähle eines',
      'replay.recordN': '{n}. {players} ({score})',
      'replay.notFound': 'Es gibt kein gespeichertes Spiel mit dieser Kennung.',
      'replay.invalid': 'Diese Datei ist kein Spielbericht.',
      'replay.tooLarge': 'Die Datei ist zu groß (höchstens 2 MiB).',
      'replay.busy': 'Der Server ist beschäftigt; bitte gleich noch einmal versuchen.',
      'replay.offline': 'Der Server ist nicht erreichbar.',
      'replay.failed': 'Die Wiederholung kann nicht geladen werden.',
      'replay.empty': 'Der Spielbericht kann nicht wiederholt werden.',
      'replay.fault': 'Hier verstößt der Spielbericht gegen die Regeln ({rule}): {reason}',
      'replay.aborted': 'Hier endete das Spiel vorzeitig.',
      'replay.seat': 'Platz {n}',
      'replay.seatLabel': '{name}: {count} Karten',
      'replay.where': 'Runde {round}',
      'replay.whereTrick': 'Runde {round} · Stich {trick}',
      'replay.position': 'Schritt {n} von {total}',
      'replay.round': 'Runde',
      'replay.trick': 'Stich',
      'replay.speed': 'Tempo',
      'replay.roundN': 'Runde {n}',
      'replay.trickN': 'Stich {n}',
      'replay.dealing': 'Geben und Schupfen',
      'replay.roundEnd': 'Rundenende',
      'replay.first': 'Erster Schritt',
      'replay.prev': 'Schritt zurück',
      'replay.play': 'Abspielen',
      'replay.pause': 'Anhalten',
      'replay.next': 'Schritt vor',
      'replay.last': 'Letzter Schritt',
      'replay.out': 'raus #{place}',
      'replay.passed': 'passt',
      'replay.turn': 'am Zug',
      'replay.won': '{points} Pkt. · Stiche: {tricks}',
      'replay.pushed': '{name} schupft',
      'replay.taken': '{name} nimmt {points} Punkte',
      'replay.earlier': '+{n} davor',
      'replay.step.deal': 'Runde {round}: Alle bekommen die ersten 8 Karten.',
      'replay.step.grandTichu': 'Der Rest wird gegeben. Großes Tichu: {names}.',
      'replay.step.noGrandTichu': 'Der Rest wird gegeben; niemand sagt Großes Tichu an.',
      'replay.step.push': 'Alle schupfen drei Karten: nach rechts, zum Partner, nach links.',
      'replay.step.tichu': '{name} sagt Tichu an.',
      'replay.step.play': '{name} spielt {combo}.',
      'replay.step.bomb': '{name} bombt mit {combo}!',
      'replay.step.pass': '{name} passt.',
      'replay.step.wish': '{name} wünscht sich: {value}.',
      'replay.step.noWish': '{name} wünscht sich nichts.',
      'replay.step.dragon': '{name} gibt den Drachen-Stich ({points} Punkte) an {to}.',
      'replay.step.trick': '{name} nimmt den Stich ({points} Punkte).',
      'replay.step.roundEnd': 'Runde {round} endet: {a} : {b}.',
      'replay.step.doubleVictory': 'Runde {round} endet mit einem Doppelsieg: {a} : {b}.',
      'replay.combo.single': '{card}',
      'replay.combo.pair': 'ein Paar ({value})',
      'replay.combo.triple': 'einen Drilling ({value})',
      'replay.combo.stair': 'eine Treppe bis {value}',
      'replay.combo.fullhouse': 'ein Full House ({value})',
      'replay.combo.street': 'eine Straße aus {count} Karten bis {value}',
      'replay.combo.dog': 'den Hund',
      'replay.combo.bomb4': 'vier {value}',
      'replay.combo.bombStreet': 'einer Straßenbombe bis {value}'
    }
  };

  /**
   * The languages offered, the first being the fallback.
   * @type {string[]}
   */
  const LANGUAGES = Object.freeze(['en', 'de']);

  /** @type {string} */
  let _language = LANGUAGES[0];

  /**
   * The text of a key in the current language, with its parameters filled in.
   * @param {string} key E.g. `button.play`.
   * @param {Object<string, (string|number)>} [params] Values for `{name}` placeholders.
   * @returns {string} The text; the English one if the language lacks it; the key if unknown.
   */
  function t(key, params) {
    const text = TEXTS[_language][key] || TEXTS[LANGUAGES[0]][key] || key;
    if (!params) {
      return text;
    }
    return text.replace(/\{(\w+)\}/g, function (match, name) {
      return Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : match;
    });
  }

  /**
   * The language of the first browser preference that is offered.
   * @param {string[]} preferences E.g. `navigator.languages` (`["de-CH", "en"]`).
   * @returns {string} `en` or `de`; `en` when none fits.
   */
  function detectLanguage(preferences) {
    for (const preference of preferences || []) {
      const code = String(preference).slice(0, 2).toLowerCase();
      if (LANGUAGES.includes(code)) {
        return code;
      }
    }
    return LANGUAGES[0];
  }

  /**
   * Switch the language (an unknown one is ignored).
   * @param {string} language `en` or `de`.
   * @returns {void}
   */
  function setLanguage(language) {
    if (LANGUAGES.includes(language)) {
      _language = language;
    }
  }

  /**
   * The current language.
   * @returns {string} `en` or `de`.
   */
  function getLanguage() {
    return _language;
  }

  /**
   * The other offered language (what the language switch turns to).
   * @returns {string} `de` while English is shown, else `en`.
   */
  function otherLanguage() {
    return LANGUAGES[(LANGUAGES.indexOf(_language) + 1) % LANGUAGES.length];
  }

  /**
   * Every key of a language.
   * @param {string} language `en` or `de`.
   * @returns {string[]} The keys.
   */
  function keys(language) {
    return Object.keys(TEXTS[language] || {});
  }

  /**
   * The short value shown in a card's corner: 2..10, J/Q/K/A (B/D/K/A in German), or the
   * special card's short name.
   * @param {number} value The card value 0..16.
   * @returns {string} The label.
   */
  function valueLabel(value) {
    if (value >= 2 && value <= 10) {
      return String(value);
    }
    return t(value > 10 && value < 15 ? 'rank.' + value : 'corner.' + value);
  }

  /**
   * A card's full name, e.g. "Ace of Stars" or "Phoenix" (for screen readers and tooltips).
   * @param {number[]} card The card `[value, suit]`.
   * @returns {string} The name.
   */
  function cardName(card) {
    if (card[1] === 0) {
      return t('card.' + card[0]);
    }
    const value = card[0] > 10 ? t('value.' + card[0]) : String(card[0]);
    return t('card.name', { value: value, suit: t('suit.' + card[1]) });
  }

  /**
   * The name of an agent kind (table option `agent`): "Monte Carlo", or with a search setting
   * "Monte Carlo (0.2)"; a kind without a text shows as it is.
   * @param {string} kind E.g. `heuristic` or `montecarlo:0.2`.
   * @returns {string} The name in the current language.
   */
  function agentLabel(kind) {
    const text = String(kind);
    const colon = text.indexOf(':');
    const base = colon < 0 ? text : text.slice(0, colon);
    if (!TEXTS[LANGUAGES[0]]['agent.' + base]) {
      return text;
    }
    return t('agent.' + base) + (colon < 0 ? '' : ' (' + text.slice(colon + 1) + ')');
  }

  /**
   * The name of a level or, for an agent kind the server was set to, the kind's name.
   * @param {string} value A level (`casual`) or an agent kind (`montecarlo:0.2`).
   * @returns {string} The name in the current language.
   */
  function levelLabel(value) {
    return TEXTS[LANGUAGES[0]]['level.' + value] ? t('level.' + value) : agentLabel(value);
  }

  /**
   * The one-sentence description of a level (or, for an agent kind, that it is none).
   * @param {string} value A level or an agent kind.
   * @returns {string} The description in the current language.
   */
  function levelAbout(value) {
    const key = 'level.' + value + '.about';
    return TEXTS[LANGUAGES[0]][key] ? t(key) : t('level.other');
  }

  /**
   * The plain-words text of a server error code.
   * @param {number} code The protocol's error code.
   * @returns {string} The message in the current language.
   */
  function errorText(code) {
    const key = 'error.' + code;
    return TEXTS[LANGUAGES[0]][key] ? t(key) : t('error.unknown', { code: code });
  }

  /**
   * The texts and their helpers.
   * @namespace I18n
   * @type {Object}
   */
  Tichu.I18n = Object.freeze({
    LANGUAGES,
    t,
    detectLanguage,
    setLanguage,
    getLanguage,
    otherLanguage,
    keys,
    valueLabel,
    cardName,
    agentLabel,
    levelLabel,
    levelAbout,
    errorText
  });
})(window.Tichu = window.Tichu || {});
